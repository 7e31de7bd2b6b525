# GPU worker image for the corpus pipeline (paranmt run) on Dataflow or any portable Beam runner.
#
#   Beam 2.77 Python 3.11 SDK image (its /opt/apache/beam/boot entrypoint, same Beam and Python as the launcher)
#   + the CUDA 12 cuBLAS that CTranslate2 loads at run time, from NVIDIA's pip wheel (the driver comes from the
#     host: on Dataflow, the install-nvidia-driver service option)
#   + CTranslate2 and this project (torch from PyPI is its CUDA build on Linux).
#
# Build from the repository root (see docs/dataflow.md). Model directories placed under models/ before the build
# are copied to /opt/paranmt/models/ (create an empty models/ if you read the model from elsewhere):
#
#   mkdir -p models && docker build -t REGION-docker.pkg.dev/PROJECT/REPO/paranmt-gpu:0.1.0 .
#
# Keep a .dockerignore with .venv/, runs/, .cache/ so the build context stays small.
ARG BEAM_IMAGE=apache/beam_python3.11_sdk:2.77.0
FROM ${BEAM_IMAGE}

ENV PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    PYTHONDONTWRITEBYTECODE=1

# CTranslate2 4.8.5's wheel links the CUDA 12 runtime statically and opens libcublas.so.12 at run time; it names no
# cuDNN library (docs/scaling.md, "GPU workers"), so cuBLAS is the one CUDA library the image adds, as a wheel: no
# CUDA base image is needed.
RUN pip install nvidia-cublas-cu12==12.9.3.13
ENV LD_LIBRARY_PATH=/usr/local/lib/python3.11/site-packages/nvidia/cublas/lib:${LD_LIBRARY_PATH}

WORKDIR /opt/paranmt
# Dependencies first (cached layer), then the code. numpy/pyarrow/protobuf are pinned as on the launcher; torch
# is left to PyPI's default (CUDA) build, which the fairseq backend can use on the GPU.
COPY pyproject.toml README.md ./
COPY configs/ configs/
COPY paranmt/__init__.py paranmt/__main__.py paranmt/
COPY paranmt/core/ paranmt/core/
COPY translate/ translate/
COPY pipeline/ pipeline/
COPY filters/ filters/
COPY train_embeddings/ train_embeddings/
COPY paranmt/cli/ paranmt/cli/
COPY constraints.txt /tmp/constraints.full.txt
RUN grep -v '^torch==' /tmp/constraints.full.txt > /tmp/constraints.txt \
 && PIP_CONSTRAINT=/tmp/constraints.txt pip install ".[gcp]" \
 && python -c "import ctranslate2, pipeline.launcher.launch, pipeline.stages.worker_translator; print('CUDA devices visible at build:', ctranslate2.get_cuda_device_count())"
COPY models/ /opt/paranmt/models/

# Provenance recorded in every Parquet file's metadata (there is no .git in the image).
ARG CODE_VERSION=container
ENV PARANMT_CODE_VERSION=${CODE_VERSION}

# The entrypoint stays the Beam SDK harness boot program inherited from the base image.
