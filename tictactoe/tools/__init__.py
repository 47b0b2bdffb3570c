"""The tools that drive the engine: the command line, the console's words, benchmarks, the
arena, the lab's experiments, exhaustive counts and the opening book's offline build.

The top layer: nothing else of the engine imports it.
"""
