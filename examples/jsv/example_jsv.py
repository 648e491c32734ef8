#!/usr/bin/env python3
"""An example JSV for minige, in Python (client JSV or server JSV).

Site rules it enforces:
  - parallel jobs may ask for at most JSV_MAX_SLOTS slots (default 16);
  - a job without a run-time limit gets h_rt=JSV_DEFAULT_H_RT (default 1:0:0);
  - a job whose account (-A) is "none" is rejected for now (REJECT_WAIT).
"""

from __future__ import annotations

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import minige_jsv

MAX_SLOTS = int(os.environ.get("JSV_MAX_SLOTS", "16"))
DEFAULT_H_RT = os.environ.get("JSV_DEFAULT_H_RT", "1:0:0")


def on_verify(jsv: minige_jsv.Jsv) -> None:
    """Apply the site rules to one job."""
    if jsv.is_param("pe_name") and int(jsv.get_param("pe_max") or "0") > MAX_SLOTS:
        jsv.reject(f"parallel jobs may use at most {MAX_SLOTS} slots")
        return
    if jsv.get_param("A") == "none":
        jsv.reject_wait("account none is closed until the next billing period")
        return
    if not jsv.sub_is_param("l_hard", "h_rt"):
        jsv.sub_add_param("l_hard", "h_rt", DEFAULT_H_RT)
        jsv.log_info(f"h_rt set to {DEFAULT_H_RT}")
        jsv.correct("h_rt set to the site default")
        return
    jsv.accept()


if __name__ == "__main__":
    minige_jsv.main(on_verify)
