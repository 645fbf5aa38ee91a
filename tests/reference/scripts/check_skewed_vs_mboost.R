# Skewed (lognormal) covariates against the real mboost (by hand where mboost is installed; never in CI). Such a
# covariate leaves its upper basis columns on a few rows, so X'X is nearly or exactly singular. Two parts:
#   defaults   mboost(y ~ bbs(x, knots) + bbs(z, knots)), df 4, mstop 200: max|fitted difference| / max|fitted|, the
#              lambdas of both, and the df each lambda reaches, from the n x n hat matrix (tr(2H - H'H)).
#   unpenalised  one step (nu 1, mstop 1) of bbs(x, df = k) alone, where mboost fits (rcond(X'X) within R's solve):
#              ours and mboost's fitted values each against full-rank least squares from the SVD of X.
#   singular   the same step where x has k - 1 to k - 3 distinct values (X'X singular by construction; mboost stops):
#              ours against the minimum-norm least squares (SVD of X, singular values below 1e-10 of the largest
#              dropped); prints the worst.
# docs/reference-checks.md records a run. Usage: Rscript check_skewed_vs_mboost.R [defaults|unpenalised|singular]
# [cases]
# (GAMBOOST: the CLI, default build/app/gamboost)
suppressPackageStartupMessages(library(mboost))
args <- commandArgs(trailingOnly = TRUE)
part <- if (length(args) >= 1) args[1] else "defaults"
cases <- if (length(args) >= 2) as.integer(args[2]) else 12
G <- Sys.getenv("GAMBOOST", "build/app/gamboost")
dir <- file.path(tempdir(), "skewed-check"); dir.create(dir, showWarnings = FALSE)
csv <- file.path(dir, "d.csv"); out <- file.path(dir, "r.json")
ours <- function(...) {
  unlink(out)
  system2(G, c("fit", "--data", csv, "--out", out, "--quiet", ...), stdout = FALSE, stderr = FALSE)
  jsonlite::fromJSON(out)
}
hatDf <- function(X, K, lambda) {
  H <- X %*% solve(crossprod(X) + lambda * K, t(X))
  sum(diag(2 * H - H %*% H))
}

if (part == "defaults") {
  for (s in seq_len(cases)) {
    set.seed(s); n <- sample(c(60, 200, 1000), 1); knots <- sample(c(10, 20, 40), 1)
    x <- exp(rnorm(n, 0, runif(1, 1.5, 3))); z <- runif(n)
    y <- sin(log(x)) + z + rnorm(n)
    write.csv(data.frame(y = y, x = x, z = z), csv, row.names = FALSE)
    m <- mboost(y ~ bbs(x, knots = knots) + bbs(z, knots = knots), data = data.frame(y, x, z),
                control = boost_control(mstop = 200))
    j <- ours("--spline", "x,z", "--knots", knots, "--mstop", 200)
    X <- as.matrix(extract(m$baselearner[[1]], "design")); K <- as.matrix(extract(m$baselearner[[1]], "penalty"))
    ml <- unname(m$basemodel[[1]]$df()["lambda"]); ol <- j$learners$lambda[1]
    cat(sprintf("seed %2d n %4d knots %2d rcond(X'X) %.1e | fitted %.1e | lambda(x) mboost %.10g ours %.10g: df %.9f / %.9f\n",
                s, n, knots, rcond(crossprod(X)), max(abs(j$fitted - fitted(m))) / max(abs(fitted(m))), ml, ol,
                hatDf(X, K, ml), hatDf(X, K, ol)))
  }
} else if (part == "singular") {
  worst <- 0; count <- 0
  for (s in seq_len(cases)) {
    set.seed(s); knots <- sample(c(3, 4, 6), 1); k <- knots + 4; n <- sample(c(20, 60, 200), 1)
    x <- sample(sort(runif(k - sample(1:3, 1), 0, 10)), n, TRUE)
    if (length(unique(x)) < 3) next
    y <- sin(x) + rnorm(n)
    write.csv(data.frame(y = y, x = x), csv, row.names = FALSE)
    X <- as.matrix(extract(bbs(x, knots = knots, df = k), "design"))
    sv <- svd(X); r <- sum(sv$d > 1e-10 * sv$d[1]); U <- sv$u[, 1:r, drop = FALSE]
    ls <- U %*% crossprod(U, y - mean(y))
    o <- ours("--spline", "x", "--knots", knots, "--edf", k, "--nu", 1, "--mstop", 1)$fitted - mean(y)
    worst <- max(worst, max(abs(o - ls)) / max(abs(ls))); count <- count + 1
  }
  cat(sprintf("%d cases: worst max|ours - min-norm LS| / max|LS| %.1e\n", count, worst))
} else {
  for (s in seq_len(cases)) {
    set.seed(s); knots <- sample(c(3, 4, 6), 1); k <- knots + 4; n <- sample(c(20, 60, 200), 1)
    x <- exp(rnorm(n, 0, runif(1, 1.5, 3))); y <- sin(log(x)) + rnorm(n)
    X <- as.matrix(extract(bbs(x, knots = knots, df = k), "design"))
    rc <- rcond(crossprod(X))
    if (rc > 1e-12 || rc < 1e-17) next
    write.csv(data.frame(y = y, x = x), csv, row.names = FALSE)
    m <- tryCatch(mboost(y ~ bbs(x, knots = knots, df = k), data = data.frame(y, x),
                         control = boost_control(mstop = 1, nu = 1)), error = function(e) e)
    if (inherits(m, "error")) next
    o <- ours("--spline", "x", "--knots", knots, "--edf", k, "--nu", 1, "--mstop", 1)$fitted
    sv <- svd(X); ls <- mean(y) + sv$u %*% crossprod(sv$u, y - mean(y))
    cat(sprintf("seed %3d n %3d k %2d rcond(X'X) %.1e | ours - mboost %.1e | mboost - LS %.1e | ours - LS %.1e\n", s, n,
                k, rc, max(abs(o - fitted(m))), max(abs(fitted(m) - ls)), max(abs(o - ls))))
  }
}
