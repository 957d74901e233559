"""Python helpers around stark's tools: reading search reports, and (on the
GPU machine) the benchmark drivers. Standard library only."""
