# Manual check (not run by the tests; needs mboost): how much of mboost's lambda on a covariate with few distinct
# values is rounding. For one spline bbs(x, df = 4) it prints mboost's own lambda (df2lambda: chol of
# X'X + 1e-9 K after make_psd, then svd), the same route with the rows of X in reverse order (the same matrix X'X in
# exact arithmetic), the route with eigen() for svd(), and the jittered matrix solved through the well-conditioned
# pencil (K, X'X + 1e-9 K + tau K), which is what the jitter alone does. Usage: Rscript mboost_lambda_noise.R cars speed
suppressMessages(library(mboost))
args <- commandArgs(TRUE)
x <- get(args[1])[[args[2]]]
dp <- bbs(x, df = 4)$dpp(rep(1, length(x)))
X <- as.matrix(extract(dp, "design"))
K <- as.matrix(extract(dp, "penalty"))
lambdaOf <- function(d) {
  dfFun <- function(l) 2 * sum(1 / (1 + l * d)) - sum(1 / (1 + l * d)^2)
  uniroot(function(l) dfFun(l) - 4, c(0, 1e6), tol = 1e-14)$root
}
viaChol <- function(XtX, values = function(M) svd(M, nu = 0, nv = 0)$d) {
  A <- mboost:::make_psd(XtX + K * 1e-9)
  Rm <- backsolve(chol(A), x = diag(ncol(A)))
  values(crossprod(Rm, K) %*% Rm)
}
viaPencil <- function(A) {
  tau <- sum(diag(A)) / sum(diag(K))
  Ri <- backsolve(chol(A + tau * K), diag(ncol(A)))
  mu <- eigen(t(Ri) %*% K %*% Ri, symmetric = TRUE, only.values = TRUE)$values
  mu / (1 - tau * mu)
}
mb <- dp$df()["lambda"]
out <- c(mboost = mb, route = lambdaOf(viaChol(crossprod(X))),
         rows_reversed = lambdaOf(viaChol(crossprod(X[nrow(X):1, ]))),
         eigen_for_svd = lambdaOf(viaChol(crossprod(X), function(M) eigen(M, TRUE, TRUE)$values)),
         jitter_stable = lambdaOf(viaPencil(mboost:::make_psd(crossprod(X) + K * 1e-9))))
print(data.frame(lambda = sprintf("%.15g", out), relative_to_mboost = sprintf("%.1e", out / mb - 1),
                 row.names = names(out)))
