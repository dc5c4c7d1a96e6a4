"""``python -m triominos``: the ``triominos`` command, also where its script is not on PATH."""

from triominos.cli import main

if __name__ == "__main__":
    main()
