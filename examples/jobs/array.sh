#!/bin/sh
# An array job: qsub examples/jobs/array.sh 3   -> tasks 1..10, 3 s each
#$ -N sweep
#$ -t 1-10
echo "task $SGE_TASK_ID"
sleep "${1:-2}"
