#!/bin/bash
# Prints where the tool is installed, for a generated config.
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
echo "tool_dir = $here"
