"""``paranmt vmap``: a vocabulary map from the bundled Tatoeba bitext through the default model's text chain, and
bitext sides that do not pair up refused in one line (translate/vmap.py's counting is tests/translate/'s)."""

from __future__ import annotations

from pathlib import Path

import pytest

from paranmt.cli.vmap_command import main as vmap_main
from tests.support.shared_data import small_cs_en
from tests.support.taste_data import TASTE_DATA
from translate.ct2_backend import read_vmap


@pytest.fixture(scope="module")
def small_model() -> Path:
    return small_cs_en()


def test_vmap_command_builds_a_map_from_real_bitext(small_model, tmp_path, capsys):
    # the bundled 2,000 Tatoeba pairs (every clone): everyday sentences, Tom the most frequent name
    cs, en = TASTE_DATA / "bitext" / "tatoeba.cs", TASTE_DATA / "bitext" / "tatoeba.en"
    out = tmp_path / "vmap.txt"
    assert vmap_main(["--model", str(small_model), "--cs", str(cs), "--en", str(en),
                      "--out", str(out), "--always", "50"]) == 0
    lines = read_vmap(out).decode().splitlines()
    assert lines[0].startswith("\t</s> <unk> ") and len(lines[0].split()) == 52
    mapped = dict(line.split("\t") for line in lines[1:])
    always = lines[0].split()
    assert "Tom" in always and "book" in mapped["knihu"].split() and mapped["auto"].split()[0] == "car"
    assert mapped["pes"].split()[0] == "dog" and mapped["otec"].split()[0] == "father"
    assert "Tom" not in mapped["Toma"].split(), "always-on tokens are not repeated per source token"
    bad = tmp_path / "bad.cs"
    bad.write_text("jen jeden řádek\n", encoding="utf-8")
    # the flags' earlier names still work
    assert vmap_main(["--model", str(small_model), "--cs", str(bad), "--en", str(en),
                      "--out", str(out)]) == 2
    assert "equal" in capsys.readouterr().err
