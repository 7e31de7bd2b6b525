#!/usr/bin/env bash
# The README's set-up: .venv with paranmt and its `dev` extra. It installs the same packages, at the same versions,
# as `PIP_CONSTRAINT=constraints.txt pip install -e ".[dev]" && pip uninstall -y torchaudio` (the last step below is
# exactly that install), faster: fairseq-fixed's six C/C++ extensions compile on every core while pip installs
# everything else, instead of one after another on one core. docs/install.md has the measurement and each step.
set -euo pipefail
cd "$(dirname "$0")"
export PIP_CONSTRAINT="$PWD/constraints.txt"  # torch stays the CPU build on every pip step (docs/install.md)
pip=(.venv/bin/pip install --no-build-isolation)
pin() { grep -o "\"$1==[^\"]*\"" pyproject.toml | tr -d '"'; }  # a dependency as pyproject.toml pins it
python3 -m venv .venv
# 1. What building fairseq-fixed imports, so that its build needs no isolated environment of its own (pip would
#    install torch a second time into one). filelock (a torch dependency) at paranmt's pin, so that
#    step 3 replaces nothing under the running build.
.venv/bin/pip install torch numpy cython setuptools wheel "$(pin filelock)"
# 2. In the background: fairseq-fixed's wheel, built against that torch. Its setup.py compiles one extension after
#    another through torch's ninja backend, which writes every extension's build.ninja to the same file, so it cannot
#    build two at once: the config file turns that backend off (the plain compiler, thread-safe) and builds
#    `parallel` extensions at once. Python's own compiler flags plus -g0: the same machine code without debug
#    information (it changes no generated code, only the compile time).
work=$(mktemp -d)
trap 'kill $(jobs -p) 2>/dev/null || true; rm -rf "$work"' EXIT  # a failed step stops the background build too
printf '[build_ext]\nparallel = %s\nuse_ninja =\n' "$(nproc)" > "$work/build.cfg"
flags="$(.venv/bin/python -c 'import sysconfig; print(sysconfig.get_config_var("CFLAGS"))') -g0"
fairseq=$(pin fairseq-fixed)
DIST_EXTRA_CONFIG="$work/build.cfg" CFLAGS="$flags" CXXFLAGS="$flags" \
  .venv/bin/pip wheel -v --no-deps --no-build-isolation --wheel-dir "$work" "$fairseq" > "$work/build.log" 2>&1 &
build=$!
echo "install.sh: building $fairseq in the background (log: $work/build.log)"
# 3. Meanwhile, everything in `dev` but fairseq.
"${pip[@]}" -e ".[test,st,static]"
wait "$build" || { tail -n 40 "$work/build.log"; echo "install.sh: building $fairseq failed (log above)"; exit 1; }
echo "install.sh: $fairseq built"
# 4. The whole `dev` extra: fairseq-fixed from the wheel just built, and what it alone needs.
"${pip[@]}" -e ".[dev]" "$work"/fairseq_fixed-*.whl
# fairseq-fixed drags in a CUDA-only torchaudio that cannot load beside the CPU torch (docs/ecosystem.md).
.venv/bin/pip uninstall -y torchaudio
