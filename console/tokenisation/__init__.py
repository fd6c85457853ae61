"""Tokenisation: profiles and their editor, the profile tester and the vault browser."""
