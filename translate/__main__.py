import sys

from configs.command_line import run_main
from translate.file_translator import main

sys.exit(run_main(main))
