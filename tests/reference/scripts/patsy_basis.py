"""patsy's bs(x, knots=interior, degree, include_intercept=True, lower_bound=lo, upper_bound=hi): the paper's basis.

Usage: python3 patsy_basis.py x.csv knots degree out.csv
x.csv holds one column of x values with a header; interior knots are equidistant on [min x, max x] as in
design.md (knots + 2 points without the ends). Writes the dense basis, 17 significant digits.
"""
import sys

import numpy as np
from patsy import bs

x = np.loadtxt(sys.argv[1], skiprows=1, ndmin=1)
knots, degree = int(sys.argv[2]), int(sys.argv[3])
lo, hi = x.min(), x.max()
inner = np.linspace(lo, hi, knots + 2)[1:-1]
B = bs(x, knots=inner, degree=degree, include_intercept=True, lower_bound=lo, upper_bound=hi)
np.savetxt(sys.argv[4], np.asarray(B), fmt="%.17g", delimiter=",")
