"""``python -m tictactoe``: the command line (see ``tictactoe.tools.cli``)."""

import os
import sys

from .tools.cli import main

if __name__ == "__main__":
    try:
        status = main()
    except BrokenPipeError:
        # The reader went away (python -m tictactoe stats | head): stop quietly,
        # and point stdout at nothing so the final flush does not fail again.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        status = 1
    sys.exit(status)
