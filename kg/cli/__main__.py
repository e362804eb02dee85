"""``python -m kg.cli``: the ``kg`` executable."""

from kg.cli import program

if __name__ == "__main__":  # pragma: no cover
    program()
