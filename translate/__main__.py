import sys

from translate.file_translator import main

sys.exit(main())
