"""The console's shared kit: what every area uses (the app contract, the paged list, the record editor, fields,
dialogs, messages, words and the one handler for engine refusals in workers). Imports no area."""
