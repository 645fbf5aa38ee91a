# Writes a folds file for `gamboost cv --folds-file` and mboost_cvrisk_reference.R: a header (fold1..foldB), one
# column per fold, one row per data row of data.csv, non-negative integer weights. The folds are drawn on the complete
# rows (complete.cases over all columns, or over columns=a,b,...) exactly as mboost's cv(rep(1, n_complete), type, B,
# prob) draws them (the same calls to R's RNG, so mboost::cv with the same seed gives the same matrix); the rows
# with a missing cell, which na.omit drops before anything, get 0 in every fold.
#
# Usage: Rscript write_folds.R data.csv out.csv kfold|bootstrap|subsampling B seed [prob=0.5] [columns=a,b,...]
args <- commandArgs(trailingOnly = TRUE)
if (length(args) < 5) stop("usage: Rscript write_folds.R data.csv out.csv kfold|bootstrap|subsampling B seed [prob] [columns]")
d <- read.csv(args[1], stringsAsFactors = FALSE, check.names = FALSE)
if (ncol(d) > 0 && names(d)[1] == "") d <- d[-1]
type <- match.arg(args[3], c("kfold", "bootstrap", "subsampling"))
B <- as.integer(args[4])
seed <- as.integer(args[5])
prob <- 0.5; columns <- names(d)
for (a in args[-(1:5)]) {
  if (startsWith(a, "prob=")) prob <- as.numeric(sub("^prob=", "", a))
  else if (startsWith(a, "columns=")) columns <- strsplit(sub("^columns=", "", a), ",", fixed = TRUE)[[1]]
  else stop("unknown argument '", a, "'")
}
complete <- complete.cases(d[columns])
n <- sum(complete)

# mboost's cvkfold, cvboot, cvsub (R/crossvalidation.R) with weights 1 and no strata
cvkfold <- function(n, k) {
  fl <- floor(n / k)
  folds <- c(rep(c(rep(0, fl), rep(1, n)), k - 1), rep(0, n * k - (k - 1) * (fl + n)))
  matrix(folds, nrow = n)[sample(1:n), , drop = FALSE]
}
cvboot <- function(n, B, weights) rmultinom(B, n, weights / sum(weights))
cvsub <- function(n, prob, B) {
  k <- floor(n * prob)
  indx <- rep(c(0, 1), c(n - k, k))
  replicate(B, sample(indx))[sample(1:n), , drop = FALSE]
}
set.seed(seed)
w <- rep(1, n)
f <- switch(type, kfold = cvkfold(n, k = B) * w, bootstrap = cvboot(n, B = B, w), subsampling = cvsub(n, prob, B) * w)
W <- matrix(0L, nrow = nrow(d), ncol = B, dimnames = list(NULL, paste0("fold", 1:B)))
W[complete, ] <- as.integer(round(f))
write.csv(W, args[2], row.names = FALSE, quote = FALSE)
cat(sprintf("%s B=%d seed %d: %d of %d rows in the folds; out-of-bag rows per fold %d..%d\n", type, B, seed, n,
            nrow(d), min(colSums(W[complete, , drop = FALSE] == 0)), max(colSums(W[complete, , drop = FALSE] == 0))))
