"""How Beam options are assembled from the ``pipeline`` section of the configuration
(:class:`configs.schema.PipelineConfig`) and the command line.

Precedence, lowest first:

1. built-in defaults (:mod:`configs.schema`);
2. the YAML file (``--config NAME_OR_PATH``);
3. ``--set section.key=value`` overrides;
4. dedicated flags (``--num-shards``, ``--beam``, ``--limit``, ...);
5. Beam options on the command line (``--runner``, ``--direct_num_workers``, ...), which also override
   ``pipeline.runner`` and ``pipeline.beam_options``.
"""

from __future__ import annotations

from collections.abc import Sequence

from apache_beam.options.pipeline_options import PipelineOptions, StandardOptions

from configs.schema import PipelineConfig


def _flag_names(args: Sequence[str]) -> set[str]:
    names = set()
    for arg in args:
        if arg.startswith("--"):
            names.add(arg[2:].split("=", 1)[0].replace("-", "_"))
    return names


def beam_argv(config: PipelineConfig, cli_beam_args: Sequence[str]) -> list[str]:
    """The Beam argument list: ``pipeline.runner`` and ``pipeline.beam_options`` first, then the command line's
    own Beam options, which win (a command-line option replaces the config's option of the same name)."""
    given = _flag_names(cli_beam_args)
    argv: list[str] = []
    if "runner" not in given:
        argv.append(f"--runner={config.runner}")
    for name, value in sorted(config.beam_options.items()):
        if name.replace("-", "_") in given:
            continue
        if isinstance(value, bool):
            if value:
                argv.append(f"--{name}")
        elif isinstance(value, list):
            argv.extend(f"--{name}={item}" for item in value)
        else:
            argv.append(f"--{name}={value}")
    return [*argv, *cli_beam_args]


def runner_name(argv: Sequence[str]) -> str:
    return runner_of(PipelineOptions(list(argv)))


def runner_of(options: PipelineOptions) -> str:
    return str(options.view_as(StandardOptions).runner)
