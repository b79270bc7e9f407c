"""The offline console: ``toride console`` (see COMMANDS.md, "The console")."""
