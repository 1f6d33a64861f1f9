#!/bin/bash
# Prints a build stamp: the wall clock, to the nanosecond.
echo "stamped at $(date +%s%N)"
