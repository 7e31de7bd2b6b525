"""Regenerate ``tatoeba.mt.en``: the package's default model (translate/models/small-cs-en, CTranslate2 int8, default
translate settings: beam 12) translates the bundled ``data/bitext/tatoeba.cs``, in one call, one hypothesis per line.

    PYTHONPATH=. python tests/data/shared-taste/generated/make_tatoeba_mt.py
"""

from __future__ import annotations

from pathlib import Path

from configs.schema import TranslateConfig
from translate.loading import load_translator

HERE = Path(__file__).resolve().parent


def main() -> None:
    czech = (HERE.parent / "data" / "bitext" / "tatoeba.cs").read_text(encoding="utf-8").splitlines()
    results = load_translator(TranslateConfig()).translate(czech)
    (HERE / "tatoeba.mt.en").write_text("".join(r.hypothesis + "\n" for r in results), encoding="utf-8")


if __name__ == "__main__":
    main()
