"""The card vault's tokenising engine: profiles, strict parsing, extraction, masking, token placement.

Pure: no database and no HTTP. The vault's storage calls `tokenise.tokenise` with an `issue`
callback that keeps the cards and returns their tokens.
"""
