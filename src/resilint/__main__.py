"""``python -m resilint``: the same as the ``resilint`` command."""

from resilint.cli import main

if __name__ == "__main__":
    main()
