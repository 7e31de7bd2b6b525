"""``python -m paranmt``: the same command as the ``paranmt`` console script."""

from paranmt.cli.paranmt_command import console

if __name__ == "__main__":
    console()
