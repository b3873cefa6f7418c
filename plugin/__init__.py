"""lorebook: a memory for coding agents that they can trust."""
import pluggy

__version__ = "0.1.0"

hookimpl = pluggy.HookimplMarker("lorebook")

__all__ = ["hookimpl", "__version__"]
