"""lorebook's built-in hook plugins, and the only code that knows Claude Code's JSON shapes."""
