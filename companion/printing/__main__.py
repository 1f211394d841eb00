"""`python -m companion.printing ...` = `companion print ...`."""

from companion.printing.cli import main

if __name__ == "__main__":
    raise SystemExit(main())
