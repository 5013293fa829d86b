#!/bin/sh
# Differential test: ref.py vs another plangate-gc implementation.
# Usage: ./diff.sh [diff.py options] -- CMD [ARGS...]
#   e.g. ./diff.sh -n 1000 -- /work/main/bin/plangate-gc
# See `python3 diff.py --help`.
exec python3 "$(dirname "$0")/diff.py" "$@"
