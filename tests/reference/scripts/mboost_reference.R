# An independent transcription of mboost 2.9's gamboost(y ~ bbs(x1, ...) + ..., boost_control(mstop, nu)) for the
# Gaussian family, in plain R: the basis from splines::splineDesign (the function mboost's bsplines() calls),
# lambda from the Demmler-Reinsch eigenvalues as in mboost's df2lambda() (solved to full precision, without mboost's
# 1e-9 jitter, as design.md section 2 asks), and the boosting loop with RSS computed from the n-vector of residuals
# as mboost_fit() does. Used by tests/reference to check `gamboost fit` against a second implementation.
#
# Usage: Rscript mboost_reference.R data.csv out_prefix knots degree boundary penalty differences edf edf_def nu mstop
# Writes out_prefix.fitted.csv (one value per row), out_prefix.path.csv (iteration, learner, risk) with
# risk = mean((y - mu)^2) and row 0 for the offset, and out_prefix.lambda.csv (learner, lambda).
args <- commandArgs(trailingOnly = TRUE)
data <- read.csv(args[1])
prefix <- args[2]
knots <- as.integer(args[3]); degree <- as.integer(args[4]); boundary <- args[5]
penalty <- args[6]; differences <- as.integer(args[7]); df <- as.numeric(args[8]); edf_def <- args[9]
nu <- as.numeric(args[10]); mstop <- as.integer(args[11])

basis <- function(x) {
  bk <- range(x)
  inner <- seq(from = bk[1], to = bk[2], length = knots + 2)
  inner <- inner[2:(length(inner) - 1)]
  if (boundary == "extended") {
    dx <- diff(bk) / (length(inner) + 1)
    lower <- seq(bk[1] - degree * dx, bk[1], length = degree + 1)
    upper <- seq(bk[2], bk[2] + degree * dx, length = degree + 1)
    k <- c(lower, inner, upper)
    splines::splineDesign(k, x, degree + 1, outer.ok = TRUE)
  } else {
    k <- c(rep(bk[1], degree + 1), inner, rep(bk[2], degree + 1))
    splines::splineDesign(k, x, degree + 1)
  }
}

penalty_matrix <- function(k) {
  if (penalty == "ridge" || differences == 0) return(diag(k))
  crossprod(diff(diag(k), differences = differences))
}

lambda_for <- function(X, K) {
  XtX <- crossprod(X)
  if (qr(X)$rank < ncol(X)) {
    # Fewer rows (or distinct values) than basis columns: X'X is singular and has no Cholesky factor, so the edf
    # comes from the n x n hat matrix H = X (X'X + l K)^-1 X' itself, positive definite for l > 0 wherever the
    # data identify K's null space (d distinct values for d-th differences).
    hat <- function(l) X %*% solve(XtX + l * K, t(X))
    lower <- 1e-8  # the hat matrix needs l > 0; df(1e-8) is the rank to about 1e-7 here
    dfFun <- if (edf_def == "trace") function(l) sum(diag(hat(l))) else
      function(l) { H <- hat(l); 2 * sum(diag(H)) - sum(H * H) }
  } else {
    Rm <- backsolve(chol(XtX), x = diag(ncol(XtX)))
    lower <- 0
    d <- svd(crossprod(Rm, K) %*% Rm, nu = 0, nv = 0)$d
    dfFun <- if (edf_def == "trace") function(l) sum(1 / (1 + l * d)) else
      function(l) 2 * sum(1 / (1 + l * d)) - sum(1 / (1 + l * d)^2)
  }
  if (df >= qr(X)$rank) return(0)
  upper <- 5000
  while (dfFun(upper) - df > 0) upper <- upper * 2
  uniroot(function(l) dfFun(l) - df, c(lower, upper), tol = 1e-15 * upper, maxiter = 10000)$root
}

y <- data$y
learners <- setdiff(names(data), "y")
fits <- lapply(learners, function(name) {
  X <- basis(data[[name]])
  K <- penalty_matrix(ncol(X))
  lambda <- lambda_for(X, K)
  list(X = X, A = crossprod(X) + lambda * K, lambda = lambda)
})
mu <- rep(mean(y), length(y))
risk <- numeric(mstop + 1); risk[1] <- mean((y - mu)^2)
path <- character(mstop)
for (m in 1:mstop) {
  u <- y - mu
  best <- NULL; best_rss <- Inf; best_j <- 0
  for (j in seq_along(fits)) {
    f <- fits[[j]]
    fitted <- f$X %*% solve(f$A, crossprod(f$X, u))
    rss <- mean((u - fitted)^2)
    if (rss < best_rss) { best_rss <- rss; best <- fitted; best_j <- j }
  }
  mu <- mu + nu * as.vector(best)
  path[m] <- learners[best_j]
  risk[m + 1] <- mean((y - mu)^2)
}
write.table(data.frame(fitted = sprintf("%.17g", mu)), paste0(prefix, ".fitted.csv"), row.names = FALSE, quote = FALSE)
write.table(data.frame(iteration = 0:mstop, learner = c("(offset)", path), risk = sprintf("%.17g", risk)),
            paste0(prefix, ".path.csv"), row.names = FALSE, quote = FALSE, sep = ",")
write.table(data.frame(learner = learners, lambda = sprintf("%.17g", sapply(fits, `[[`, "lambda"))),
            paste0(prefix, ".lambda.csv"), row.names = FALSE, quote = FALSE, sep = ",")
