# The binomial benchmark file of docs/performance.md ("Binomial on this 2-core machine"): n = 1e4, p = 100,
# P(y = 1) logistic in sin(6 x1) + 3 (x2 - 0.5) + cos(5 x3), the other covariates noise. Usage: python3 make-bin1e4.py
import math
import random

random.seed(3)
n, p = 10000, 100
with open('bin1e4.csv', 'w') as f:
    f.write('y,' + ','.join('x%d' % j for j in range(1, p + 1)) + '\n')
    for i in range(n):
        x = [random.random() for _ in range(p)]
        eta = math.sin(6 * x[0]) + (x[1] - 0.5) * 3 + math.cos(5 * x[2])
        y = 1 if random.random() < 1 / (1 + math.exp(-eta)) else 0
        f.write(str(y) + ',' + ','.join('%.6f' % v for v in x) + '\n')
