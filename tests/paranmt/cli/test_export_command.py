"""``paranmt export``: a model folder never replaces a file (exporting itself: tests/train_embeddings/export)."""

from __future__ import annotations

from paranmt.cli.paranmt_command import main


def test_export_never_replaces_a_file_with_a_model_folder(user_paths, capsys):
    """``export --out FILE`` used to delete the file and write the model folder in its place."""
    d = user_paths
    assert main(["export", "--format", "sentence-transformers", "--model", str(d / "folder"), "--out",
                 str(d / "file")]) == 2
    assert capsys.readouterr().err == (f"error: --out {d / 'file'} is a file: a sentence-transformers model is a "
                                       "folder, choose a new path\n")
    assert (d / "file").read_text() == "user data\n"


def test_export_formats_are_the_librarys():
    """export's --format choices are listed before the library loads (tests/paranmt/cli/test_help.py)."""
    from paranmt.cli import export_command
    from train_embeddings.export import model_export

    assert export_command.FORMATS == model_export.FORMATS
