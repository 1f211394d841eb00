"""`python -m companion.printing ...` = `companion print ...`."""

from companion.printing.cli import main

raise SystemExit(main())
