#!/bin/bash
# Prints where the tool is, as it was called, for a generated config.
here=$(dirname "${BASH_SOURCE[0]}")
echo "tool_dir = $here"
