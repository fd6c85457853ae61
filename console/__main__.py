"""`python -m console` is the `frontdesk` command."""

from console.cli import main

main()
