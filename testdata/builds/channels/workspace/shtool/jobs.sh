#!/bin/bash
# Prints make's flags for this machine: $JOBS jobs, or one per CPU.
echo "MAKEFLAGS = -j${JOBS:-$(nproc)}"
