# Fits mgcv::bam (fREML, discrete = TRUE) with one s() term per covariate on the training CSV and reports its fit time
# and its test MSE on the test CSV. Used by bam-compare.sh; prints "key value" lines.
# Usage: Rscript bam-compare.R train.csv test.csv [nthreads]
args <- commandArgs(trailingOnly = TRUE)
stopifnot(length(args) >= 2)
threads <- if (length(args) >= 3) as.integer(args[3]) else 2L
suppressPackageStartupMessages(library(mgcv))
read_s <- system.time({
  train <- read.csv(args[1])
  test <- read.csv(args[2])
})[["elapsed"]]
covariates <- setdiff(names(train), "y")
form <- as.formula(paste("y ~", paste0("s(", covariates, ")", collapse = " + ")))
fit_time <- system.time(fit <- bam(form, data = train, method = "fREML", discrete = TRUE, nthreads = threads))
fit_s <- fit_time[["elapsed"]]
mse <- mean((predict(fit, newdata = test) - test$y)^2)
cat("mgcv_version", as.character(packageVersion("mgcv")), "\n")
cat("bam_terms", length(covariates), "\n")
cat("bam_read_s", read_s, "\n")
cat("bam_fit_s", fit_s, "\n")
cat("bam_fit_cpu_s", fit_time[["user.self"]] + fit_time[["sys.self"]], "\n")
cat("bam_test_mse", format(mse, digits = 6), "\n")
