# Checks the plain-R transcription mboost_cvrisk_reference.R against the real mboost's cvrisk() (run by hand where
# mboost is installed; never in CI, which has only r-base-core). Per case: data from write_family_data.R (seed
# 20261125, 400 rows, NA cells), folds from write_folds.R (one row per data row, 0 on the rows na.omit drops), then
#   mod <- gamboost(y ~ bbs(x1, knots = 20, df = 4) + ... + bols(lin, df = 4) + bols(fac, df = 4), data = complete rows,
#                   family = F, control = boost_control(mstop = 200, nu = 0.3))
#   cvrisk(mod, folds = W[complete rows, ], papply = lapply)
# and prints the normwise difference ||A - B||_F / ||B||_F of the out-of-bag risk matrices (folds x 0..mstop), the
# largest elementwise relative difference, and both mstops. It also checks that write_folds.R's matrix is mboost's
# cv(rep(1, n), type, B, prob) for the same seed. docs/reference-checks.md records a run.
#
# Usage: [ONLY=regex] Rscript check_cvrisk_vs_mboost.R [scratch_dir]
suppressPackageStartupMessages(library(mboost))
args <- commandArgs(trailingOnly = TRUE)
dir <- if (length(args) >= 1) args[1] else file.path(tempdir(), "cvrisk-check")
dir.create(dir, showWarnings = FALSE, recursive = TRUE)
self <- sub("^--file=", "", grep("^--file=", commandArgs(FALSE), value = TRUE))
scripts <- dirname(normalizePath(self))
seed <- 20261125L
cat("mboost", as.character(packageVersion("mboost")), "- data seed", seed, "- scratch", dir, "\n")

rscript <- function(script, ...) {
  out <- suppressWarnings(system2("Rscript", c(file.path(scripts, script), ...), stdout = TRUE, stderr = TRUE))
  status <- attr(out, "status")
  if (!is.null(status) && status != 0) stop(script, ": ", paste(out, collapse = "\n"))
  out
}
readData <- function(file) {
  d <- read.csv(file, stringsAsFactors = FALSE, check.names = FALSE)
  if (names(d)[1] == "") d <- d[-1]
  d
}
byteFactor <- function(x) factor(x, levels = sort(unique(x[!is.na(x)]), method = "radix"))
normwise <- function(a, b) sqrt(sum((a - b)^2)) / sqrt(sum(b^2))

splines <- paste0("x", 1:8)
fm <- as.formula(paste("y ~", paste(c(sprintf("bbs(%s, knots = 20, df = 4, differences = 2, degree = 3)", splines),
                                      "bols(lin, df = 4)", "bols(fac, df = 4)"), collapse = " + ")))
refKeys <- c(paste0("splines=", paste(splines, collapse = ",")), "linears=lin", "factors=fac", "knots=20", "df=4",
             "linear_df=4", "factor_df=4", "nu=0.3", "mstop=200")

results <- list()
only <- Sys.getenv("ONLY")  # a regular expression: run only the cases whose name matches
check <- function(name, family, type, B, foldSeed, prob = 0.5, weights = "0", tau = "0.2") {
  if (nzchar(only) && !grepl(only, name)) return(invisible(NULL))
  data <- file.path(dir, sprintf("%s-w%s.csv", family, weights))
  rscript("write_family_data.R", data, family, seed, 400, weights)
  folds <- file.path(dir, sprintf("folds-%s-%d-%d.csv", type, B, foldSeed))
  rscript("write_folds.R", data, folds, type, B, foldSeed, paste0("prob=", prob))
  prefix <- file.path(dir, gsub("[^A-Za-z0-9]+", "_", name))
  rscript("mboost_cvrisk_reference.R", data, folds, prefix, paste0("family=", family),
          if (weights != "0") "weights=w", if (family == "expectile") paste0("tau=", tau),
          if (family == "huber") "huber_delta=1", refKeys)
  ref <- as.matrix(read.csv(paste0(prefix, ".cvrisk.csv"), header = FALSE))
  refMstop <- as.integer(readLines(paste0(prefix, ".mstop.txt")))

  d <- readData(data)
  cc <- complete.cases(d)
  d <- d[cc, , drop = FALSE]
  for (j in names(d)) if (is.character(d[[j]])) d[[j]] <- byteFactor(d[[j]])
  w <- if (weights != "0") d$w else NULL
  d$w <- NULL
  W <- as.matrix(read.csv(folds))[cc, , drop = FALSE]
  set.seed(foldSeed)  # write_folds.R draws as mboost's cv() does
  cvW <- cv(rep(1, sum(cc)), type = if (type == "subsampling") "subsampling" else type, B = B, prob = prob)
  sameFolds <- all(unclass(cvW) == W)
  fam <- switch(family, gaussian = Gaussian(), binomial = Binomial(), poisson = Poisson(),
                expectile = ExpectReg(tau = as.numeric(tau)), adaexp = AdaExp(), gamma = GammaReg(),
                negbin = NBinomial(), laplace = Laplace(), huber = Huber(d = 1))
  mod <- suppressWarnings(gamboost(fm, data = d, weights = w, family = fam,
                                   control = boost_control(mstop = 200, nu = 0.3)))
  cvr <- suppressWarnings(cvrisk(mod, folds = W, papply = lapply))  # df > rank warnings of bols(lin, df = 4)
  mb <- unclass(cvr)
  attributes(mb) <- list(dim = dim(mb))
  r <- data.frame(case = name, rows = sum(cc), folds = B, same_folds = sameFolds, normwise = normwise(ref, mb),
                  max_rel = max(abs(ref - mb) / abs(mb)), mstop_ref = refMstop, mstop_mboost = mstop(cvr),
                  oob_min = min(colSums(W == 0)), oob_max = max(colSums(W == 0)))
  results[[name]] <<- r
  cat(sprintf("%-34s rows %d  folds %2d (W = mboost cv(): %s)  OOB rows %d..%d  ||A-B||/||B|| %.2e  max rel %.2e  mstop %d / mboost %d %s\n",
              name, r$rows, B, sameFolds, r$oob_min, r$oob_max, r$normwise, r$max_rel, refMstop, r$mstop_mboost,
              if (refMstop == r$mstop_mboost) "agree" else "DIFFER"))
  # also compare the folds' means near the minimum, where mstop is decided
  cm <- colMeans(mb); cr <- colMeans(ref)
  o <- order(cm)[1:2]
  cat(sprintf("%-34s mean risk at mboost's mstop %.17g (transcription %.17g); next best iteration %d, gap %.2e\n",
              "", cm[o[1]], cr[o[1]], o[2] - 1, cm[o[2]] - cm[o[1]]))
}

check("gaussian 5-fold k-fold", "gaussian", "kfold", 5, 101)
check("binomial 10 bootstrap", "binomial", "bootstrap", 10, 102)
check("poisson 8 subsamples (0.5)", "poisson", "subsampling", 8, 103)
# beyond the acceptance cases: case weights (real, rescaled) as out-of-bag weights
check("gaussian weights 5-fold k-fold", "gaussian", "kfold", 5, 104, weights = "1")
check("poisson weights 10 bootstrap", "poisson", "bootstrap", 10, 105, weights = "1")
# ExpectReg, whose offset mean(y[w == 1]) takes only a fold's rows of weight exactly 1
check("expectile 10 bootstrap", "expectile", "bootstrap", 10, 104)
check("expectile 8 subsamples (0.5)", "expectile", "subsampling", 8, 106)
check("adaexp 10 bootstrap", "adaexp", "bootstrap", 10, 102)
# Laplace and a fixed-d Huber: their offset is optimize() of each fold's weighted risk
check("laplace 5-fold k-fold", "laplace", "kfold", 5, 107)
check("huber 10 bootstrap", "huber", "bootstrap", 10, 108)
# the families whose nuisance parameter optimize() re-estimates at every iteration
check("gamma 10 bootstrap", "gamma", "bootstrap", 10, 102)
check("negbin 8 subsamples (0.5)", "negbin", "subsampling", 8, 103)
check("negbin weights 5-fold k-fold", "negbin", "kfold", 5, 104, weights = "1")

all <- do.call(rbind, results)
rownames(all) <- NULL
cat(sprintf("\nworst normwise difference %.2e; mstop agrees in %d of %d cases\n", max(all$normwise),
            sum(all$mstop_ref == all$mstop_mboost), nrow(all)))
write.csv(all, file.path(dir, "summary.csv"), row.names = FALSE)
