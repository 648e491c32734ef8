#!/bin/sh
# A job script for minige. Hosts are simulated, so nothing here runs: the job
# "runs" for as long as its first argument says (Grid Engine's job-simulation
# convention). Directives below are read by qsub like any #$ line.
#$ -N sleeper
#$ -l h_rt=0:10:0
sleep "${1:-5}"
