"""The screens a session shows (companion/ui/screens.py Screen draws them): one module per kind."""
