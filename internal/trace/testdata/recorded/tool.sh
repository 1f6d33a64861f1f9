#!/bin/bash
cat "$0.runfiles/tracews/pkg/tooldata.txt"
