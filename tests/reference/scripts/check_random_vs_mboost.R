# A randomized differential check of `gamboost fit` against the real mboost (by hand where mboost is installed; never
# in CI). Each case draws a data set with awkward covariates (uniform, values rounded to ties, integers 0..12, and
# unless "nice": five distinct values, two far outliers), NA cells, a linear and a factor learner, optional integer or
# real weights, and random knots (4, 8, 20), degree (2, 3), differences (1..3), df, nu, mstop, family (GammaReg and
# NBinomial among them) and link; writes it with write.csv, fits it with gamboost() and with the CLI, and prints for
# each case the worst relative lambda difference, max|fitted difference| / max|fitted| and whether the selection
# paths agree (or each side's error).
# docs/reference-checks.md records a run.
# Usage: Rscript check_random_vs_mboost.R CASES FIRST_SEED [nice]   (GAMBOOST: the CLI, default build/app/gamboost)
suppressPackageStartupMessages(library(mboost))
args <- commandArgs(trailingOnly = TRUE)
cases <- as.integer(args[1]); seed0 <- as.integer(args[2])
kinds <- if (length(args) >= 3 && args[3] == "nice") c("unif", "ties", "int") else c("unif", "ties", "few", "outlier", "int")
G <- Sys.getenv("GAMBOOST", "build/app/gamboost")
dir <- file.path(tempdir(), "random-check"); dir.create(dir, showWarnings = FALSE)
byteFactor <- function(x) factor(x, levels = sort(unique(x[!is.na(x)]), method = "radix"))

for (cs in seq_len(cases)) {
  seed <- seed0 + cs; set.seed(seed)
  n <- sample(c(30, 60, 137, 400, 900), 1)
  fam <- sample(c("gaussian", "binomial", "poisson", "laplace", "huber", "quantile", "expectile", "adaexp", "probit", "cloglog", "cauchit",
                "gamma", "negbin"), 1)
  p <- sample(2:5, 1)
  X <- sapply(1:p, function(j) {
    kind <- sample(kinds, 1)
    switch(kind, unif = runif(n, -j, 3 * j), ties = round(rnorm(n, 0, 2), 1), few = sample(c(1, 2.5, 4, 7, 9), n, TRUE)[1:n],
           outlier = c(rnorm(n - 2), 40, -25)[sample(n)], int = sample(0:12, n, TRUE))
  })
  colnames(X) <- paste0("x", 1:p)
  lin <- rnorm(n)
  nlev <- sample(2:5, 1)
  fac <- sample(c("a", "B", "c", "Dd", "e")[1:nlev], n, TRUE)
  eta <- sin(X[, 1] / 2) + 0.3 * lin + (fac == "a") * 0.5
  y <- switch(fam, gaussian = eta + rnorm(n), poisson = rpois(n, exp(0.3 * eta)),
              laplace = eta + rt(n, 3), huber = eta + rt(n, 2), quantile = eta + rnorm(n), expectile = eta + rexp(n),
              gamma = rgamma(n, shape = 2, rate = 2 / exp(0.3 * eta)), negbin = rnbinom(n, size = 1.5, mu = exp(0.3 * eta)),
              ifelse(runif(n) < plogis(eta), "yes", "no"))
  d <- data.frame(y = y, X, lin = lin, fac = fac, stringsAsFactors = FALSE)
  wkind <- sample(c("none", "int", "real"), 1)
  if (fam == "quantile" && wkind == "real") wkind <- "int"
  if (fam == "expectile") wkind <- "none"
  if (wkind == "int") d$w <- sample(0:3, n, TRUE, prob = c(0.1, 0.5, 0.2, 0.2))
  if (wkind == "real") d$w <- round(runif(n, 0.1, 2), 2)
  nas <- sample(c(0, 0, 3), 1)
  if (nas > 0) for (k in 1:nas) d[sample(n, 1), sample(names(d), 1)] <- NA
  knots <- sample(c(4, 8, 20), 1); df <- sample(c(2.5, 4, 6), 1); diffs <- sample(1:3, 1); degree <- sample(2:3, 1)
  if (df <= diffs) df <- diffs + 1.5
  nu <- sample(c(0.05, 0.1, 0.3), 1); mstop <- sample(c(50, 150), 1)
  linDf <- sample(c(NA, 1.5), 1); facDf <- sample(c(NA, 1.5), 1)
  tau <- sample(c(0.2, 0.5, 0.8), 1); hd <- 1.5
  file <- file.path(dir, sprintf("c%d.csv", seed)); write.csv(d, file)
  # --- mboost ---
  dm <- read.csv(file, stringsAsFactors = FALSE, check.names = FALSE)[-1]
  used <- c("y", colnames(X), "lin", "fac", if (wkind != "none") "w")
  dm <- dm[complete.cases(dm[used]), , drop = FALSE]
  w <- if (wkind != "none") dm$w else NULL
  dm$w <- NULL
  for (j in names(dm)) if (is.character(dm[[j]])) dm[[j]] <- byteFactor(dm[[j]])
  terms <- c(sprintf("bbs(%s, knots = %d, df = %g, differences = %d, degree = %d)", colnames(X), knots, df, diffs, degree),
             sprintf("bols(lin%s)", if (is.na(linDf)) "" else paste0(", df = ", linDf)),
             sprintf("bols(fac%s)", if (is.na(facDf)) "" else paste0(", df = ", facDf)))
  fm <- as.formula(paste("y ~", paste(terms, collapse = " + ")))
  family <- switch(fam, gaussian = Gaussian(), binomial = Binomial(), poisson = Poisson(), laplace = Laplace(),
                   huber = Huber(d = hd), quantile = QuantReg(tau = tau), expectile = ExpectReg(tau = tau), adaexp = AdaExp(),
                   probit = Binomial(link = "probit"), cloglog = Binomial(link = "cloglog"), cauchit = Binomial(link = "cauchit"),
                   gamma = GammaReg(), negbin = NBinomial())
  off <- NULL  # mboost's default offsets for every family
  mb <- tryCatch(suppressWarnings(gamboost(fm, data = dm, weights = w, family = family, offset = off,
                                           control = boost_control(mstop = mstop, nu = nu))), error = function(e) e)
  # --- ours ---
  cliFam <- if (fam %in% c("probit", "cloglog", "cauchit")) c("--family", "binomial", "--link", fam) else c("--family", fam)
  cli <- c("fit", "--data", file, "--response", "y", "--spline", paste(colnames(X), collapse = ","), "--linear", "lin",
           "--factor", "fac", "--knots", knots, "--edf", df, "--differences", diffs, "--degree", degree, "--nu", nu,
           "--mstop", mstop, cliFam, "--out", file.path(dir, "r.json"), "--quiet")
  if (!is.na(linDf)) cli <- c(cli, "--linear-edf", linDf)
  if (!is.na(facDf)) cli <- c(cli, "--factor-edf", facDf)
  if (wkind != "none") cli <- c(cli, "--weights", "w")
  if (fam %in% c("quantile", "expectile")) cli <- c(cli, "--tau", tau)
  if (fam == "huber") cli <- c(cli, "--huber-delta", hd)
  unlink(file.path(dir, "r.json"))
  out <- suppressWarnings(system2(G, cli, stdout = TRUE, stderr = TRUE))
  st <- attr(out, "status"); st <- if (is.null(st)) 0 else st
  desc <- sprintf("seed %d %-9s n %4d p %d knots %2d df %.1f diff %d deg %d nu %.2f m %3d w %-4s linDf %s facDf %s nlev %d",
                  seed, fam, n, p, knots, df, diffs, degree, nu, mstop, wkind, linDf, facDf, nlev)
  if (inherits(mb, "error") || st != 0) {
    cat(desc, "| mboost:", if (inherits(mb, "error")) conditionMessage(mb) else "ok", "| ours:", if (st != 0) paste(out, collapse = " ") else "ok", "\n")
    next
  }
  system2("python3", c("-c", shQuote(paste0("import json; r=json.load(open('", dir, "/r.json')); ",
    "open('", dir, "/f.txt','w').write('\\n'.join(repr(v) for v in r['fitted'] if v is not None)); ",
    "open('", dir, "/l.txt','w').write('\\n'.join(repr(l['lambda']) for l in r['learners'])); n=[l['name'] for l in r['learners']]; open('", dir, "/p.txt','w').write('\\n'.join(n[i] for i in r['path']['learner']))"))))
  ours <- as.numeric(readLines(file.path(dir, "f.txt"), warn = FALSE))
  theirs <- as.vector(mb$fitted())
  names <- vapply(mb$baselearner, function(b) paste(b$get_names(), collapse = ","), "")
  mpath <- unname(names[mb$xselect()])
  opath <- readLines(file.path(dir, "p.txt"), warn = FALSE)
  rel <- if (length(ours) == length(theirs)) max(abs(ours - theirs)) / max(abs(theirs)) else NA
  same <- identical(mpath, opath)
  ol <- as.numeric(readLines(file.path(dir, "l.txt"), warn = FALSE))
  ml <- vapply(mb$basemodel, function(b) unname(b$df()["lambda"]), 0)
  lrel <- max(ifelse(ml == 0 & ol == 0, 0, abs(ol - ml) / pmax(abs(ml), abs(ol))))
  cat(sprintf("%s | lambda %.1e fitted %.2e path %s%s\n", desc, lrel, rel, if (same) "same" else "DIFF", if (same) "" else paste(" at", which(mpath != opath)[1])))
}
