# Writes a seeded data set for one family, for tests/reference/test_family_references.cpp and
# check_family_reference_vs_mboost.R: covariates x1..x8 (numeric, different ranges), lin (numeric, meant as a
# linear learner), fac (text, 4 levels whose C-locale byte order differs from an English locale's), a weights
# column w (positive, non-integer) when asked, a response y suited to the family (binomial: text "no"/"yes"),
# and missing cells (NA) scattered over the response, the covariates and w.
#
# Usage: Rscript write_family_data.R out.csv family seed [rows]
#          [weights: 0 none | 1 positive reals | 2 integers 1..3 | 3 integers 0..3, about a fifth 0] [rare]
#   rare: fac gets a fifth level, "Rare", on one complete row (a fold that leaves it out leaves X'WX singular while
#   X has full rank: mboost's rank decision on the unweighted X).
#   family: gaussian|binomial|poisson|laplace|huber|quantile|expectile|adaexp|gamma|negbin
args <- commandArgs(trailingOnly = TRUE)
out <- args[1]
family <- args[2]
seed <- as.integer(args[3])
n <- if (length(args) >= 4) as.integer(args[4]) else 400L
weights <- if (length(args) >= 5) args[5] else "0"  # 0: none, 1: positive reals, 2: integers 1..3
withWeights <- weights != "0"
set.seed(seed)

x <- sapply(1:8, function(j) runif(n, min = -j, max = 2 * j + 1))
colnames(x) <- paste0("x", 1:8)
lin <- rnorm(n, mean = 3, sd = 2)
levels <- c("low", "Mid", "high", "Zero")  # byte order: Mid, Zero, high, low
fac <- sample(levels, n, replace = TRUE, prob = c(0.3, 0.3, 0.25, 0.15))
effect <- c(low = 0, Mid = 0.6, high = -0.4, Zero = 0.3)
eta <- sin(x[, 1]) + 0.5 * cos(x[, 2] / 2) + 0.08 * x[, 3]^2 / 4 - 0.3 * tanh(x[, 5] / 3) +
  0.25 * lin + effect[fac]
eta <- as.vector(eta)
y <- switch(family,
  gaussian = eta + rnorm(n, sd = 0.5),
  binomial = ,
  adaexp = ifelse(runif(n) < plogis(1.5 * (eta - mean(eta))), "yes", "no"),
  poisson = rpois(n, exp(0.5 * (eta - mean(eta)) + 1)),
  laplace = eta + 0.6 * rt(n, df = 3),
  huber = eta + ifelse(runif(n) < 0.1, rnorm(n, sd = 6), rnorm(n, sd = 0.8)),
  quantile = eta + (0.5 + 0.15 * abs(x[, 4])) * rnorm(n),
  expectile = eta + (0.4 + 0.1 * abs(x[, 4])) * (rexp(n) - 1),
  gamma = rgamma(n, shape = 2.5, rate = 2.5 / exp(0.5 * (eta - mean(eta)) + 0.3)),
  negbin = rnbinom(n, size = 1.5, mu = exp(0.5 * (eta - mean(eta)) + 1)),
  stop("unknown family '", family, "'"))
d <- data.frame(y = y, x, lin = lin, fac = fac, stringsAsFactors = FALSE)
if (weights == "1") d$w <- round(runif(n, 0.2, 3), 3)
if (weights == "2") d$w <- sample(1:3, n, replace = TRUE)
if (weights == "3") d$w <- sample(0:3, n, replace = TRUE, prob = c(0.2, 0.4, 0.2, 0.2))

# Missing cells: about 2% of the rows lose one cell each, in the response, a covariate or the weights.
holes <- sample(n, max(3, n %/% 50))
cols <- sample(names(d), length(holes), replace = TRUE)
for (i in seq_along(holes)) d[holes[i], cols[i]] <- NA
# ... and one row loses a cell in every kind of column, so each kind is seen missing at least once
r <- setdiff(sample(n, 6), holes)
d[r[1], "y"] <- NA; d[r[2], "x3"] <- NA; d[r[3], "lin"] <- NA; d[r[4], "fac"] <- NA
if (withWeights) d[r[5], "w"] <- NA
if (length(args) >= 6 && args[6] == "rare") d[which(complete.cases(d))[1], "fac"] <- "Rare"
write.csv(d, out, row.names = FALSE)
cat(sprintf("seed %d: %d rows, %d with a missing cell\n", seed, n, sum(!complete.cases(d))))
