"""pipeline.graph: what a run builds before any work."""

from __future__ import annotations

import subprocess
import sys

from tests.support.repo import REPO_ROOT


def test_a_run_names_the_paranmt_model_score_by_key_and_checks_it_without_torch(tmp_path):
    """``paranmt_model`` (train_embeddings.pair_score, a layer above filters/) is a key of the run's scores; its
    parameters are checked on the launcher, which loads no torch for it."""
    probe = ("import sys\n"
             "from filters.plugins import PluginError, build_scores\n"
             "from pipeline.graph import RUN_SCORES\n"
             "try:\n"
             "    build_scores([{'paranmt_model': {'model': sys.argv[1]}}], RUN_SCORES)\n"
             "except PluginError as error:\n"
             "    print(error)\n"
             "print('torch' in sys.modules)\n")
    done = subprocess.run([sys.executable, "-c", probe, str(tmp_path)], cwd=REPO_ROOT, capture_output=True,
                          text=True, check=True, timeout=120)
    assert done.stdout.splitlines() == [
        f"select.scores[0] (paranmt_model): parameters: {tmp_path} is not a saved model (no model.json) nor a "
        "training run with best/ or model/", "False"]
