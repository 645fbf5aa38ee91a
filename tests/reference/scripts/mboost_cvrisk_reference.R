# An independent plain-R transcription (base R + splines; no mboost) of mboost 2.9's
#   cvrisk(gamboost(y ~ ..., data, weights = w, family = F, control = boost_control(mstop = M, nu = NU)), folds = W)
# (R/crossvalidation.R, with the refits of mboost_fit's update(), R/mboost.R), on top of the fitting functions of
# mboost_family_reference.R (sourced: the same keys, learners, families, weights and na.omit). Used by
# tests/reference/test_cv_references.cpp to check `gamboost cv --folds-file W.csv`; checked against the real mboost
# by check_cvrisk_vs_mboost.R (docs/reference-checks.md has the numbers).
#
# Usage: Rscript mboost_cvrisk_reference.R data.csv folds.csv out_prefix key=value ...   (keys: see
#   mboost_family_reference.R). folds.csv: a header, one column per fold, one row per data row of data.csv (all rows,
#   before na.omit), non-negative weights; the rows that na.omit drops from the data are dropped from the folds.
#
# Per fold b, as cvrisk(model, folds = W) computes it:
#   - the fit is mboost_fit(weights = W[, b]) on all used rows: W[, b] replaces the case weights (rescale_weights()
#     applies if they are not integers), the offset (unless offset= is given; laplace/huber: optimize() of the
#     fold's weighted risk over range(y) of all used rows) and every lambda are recomputed from W[, b]; knots and designs are those of
#     all used rows;
#   - the out-of-bag weights are the model's case weights (1 without weights=) where W[, b] == 0, else 0;
#   - risk[b, m + 1] = sum(oob * loss(y, f_m)) / sum(oob), m = 0..mstop (m = 0: the offset). mboost_fit's risk with
#     oobweights is the sum; cvrisk divides row b by colSums(OOBweights)[b]. The case weights enter rescaled
#     (model.weights() holds the rescaled ones), which the quotient does not see.
#   - a fold whose fit fails (e.g. Infinite residuals) gets NA, as cvrisk's try() does; mstop = the first minimum of
#     the fold mean (mstop.cvrisk: which.min(colSums(risk, na.rm = TRUE))), as the number of iterations.
# Writes out_prefix.cvrisk.csv (one row per fold, no header, mstop + 1 columns, %.17g) and out_prefix.mstop.txt.

self <- sub("^--file=", "", grep("^--file=", commandArgs(FALSE), value = TRUE))
source(file.path(dirname(normalizePath(self)), "mboost_family_reference.R"))

args <- commandArgs(trailingOnly = TRUE)
if (length(args) < 3) mbrStop("usage: Rscript mboost_cvrisk_reference.R data.csv folds.csv out_prefix key=value ...")
opt <- mbrOptions(args[-(1:3)])
model <- mbrPrepare(args[1], opt)

folds <- read.csv(args[2], check.names = FALSE)
if (nrow(folds) != model$nAll)
  mbrStop("folds file has ", nrow(folds), " rows, the data ", model$nAll, " (one row per data row is needed)")
folds <- as.matrix(folds)
if (!is.numeric(folds) || anyNA(folds) || any(folds < 0)) mbrStop("folds must be non-negative numbers")
folds <- folds[model$rows, , drop = FALSE]  # na.omit's rows
B <- ncol(folds)

risk <- matrix(NA_real_, nrow = B, ncol = model$mstop + 1)
for (b in seq_len(B)) {
  oob <- ifelse(folds[, b] > 0, 0, model$w)  # cvrisk: OOBweights <- weights; OOBweights[folds > 0] <- 0
  if (sum(oob) <= 0) { warning("fold ", b, " has no out-of-bag rows"); next }
  fit <- tryCatch(mbrFit(model, w = rescaleWeights(folds[, b]), riskWeights = oob), error = function(e) e)
  if (inherits(fit, "error")) { warning("fold ", b, ": ", conditionMessage(fit)); next }
  risk[b, ] <- fit$risk
}
cvMean <- colMeans(risk, na.rm = TRUE)
mstop <- which.min(colSums(risk, na.rm = TRUE)) - 1L

prefix <- args[3]
write.table(matrix(sprintf("%.17g", risk), nrow = B), paste0(prefix, ".cvrisk.csv"), row.names = FALSE,
            col.names = FALSE, quote = FALSE, sep = ",")
writeLines(as.character(mstop), paste0(prefix, ".mstop.txt"))
cat(sprintf("rows used %d of %d; %d folds; mstop %d; mean risk at 0 %.17g, at mstop %.17g\n", model$n, model$nAll, B,
            mstop, cvMean[1], cvMean[mstop + 1]))
