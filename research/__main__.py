"""`python -m research COMMAND`: the research bench's commands, with the product's error handling."""

import sys

from companion.cli import build_parser, main
from research.reader import bench, real

COMMANDS = (bench, real)

if __name__ == "__main__":
    parser = build_parser("python -m research", "Measure the dice reader on labelled photos.", COMMANDS)
    sys.exit(main(parser=parser))
