# Checks the plain-R transcription mboost_family_reference.R against the real mboost package (run by hand where
# mboost is installed; never in CI, which has only r-base-core). For each case it runs both on the same CSV and
# prints max|a - b| / max|b| for the fitted values (link scale) and the risk path (sum(w * loss) / sum(w)), the
# relative difference of the offset and of the lambdas, whether the selection paths are identical, and how well each
# program's lambdas solve df2lambda's equation (df recomputed from the n x n hat matrix: |df - target|).
# Writes scratch_dir/summary.csv. docs/reference-checks.md records a run.
#
# Usage: [ONLY=regex] Rscript check_family_reference_vs_mboost.R [scratch_dir]
suppressPackageStartupMessages(library(mboost))
args <- commandArgs(trailingOnly = TRUE)
dir <- if (length(args) >= 1) args[1] else file.path(tempdir(), "family-check")
dir.create(dir, showWarnings = FALSE, recursive = TRUE)
self <- sub("^--file=", "", grep("^--file=", commandArgs(FALSE), value = TRUE))
scripts <- dirname(normalizePath(self))
seed <- 20261125L
cat("mboost", as.character(packageVersion("mboost")), "- data seed", seed, "- scratch", dir, "\n")

readData <- function(file) {
  d <- read.csv(file, stringsAsFactors = FALSE, check.names = FALSE)
  if (names(d)[1] == "") d <- d[-1]
  d
}
byteFactor <- function(x) factor(x, levels = sort(unique(x[!is.na(x)]), method = "radix"))
splitList <- function(s) if (is.null(s) || !nzchar(s)) character(0) else strsplit(s, ",", fixed = TRUE)[[1]]

fitMboost <- function(file, spec) {
  d <- readData(file)
  resp <- spec$response
  wname <- if (is.null(spec$weights)) "" else spec$weights
  w <- NULL
  if (nzchar(wname)) {  # mboost takes weights as a vector: rows with a missing weight go first
    d <- d[!is.na(d[[wname]]), , drop = FALSE]
    w <- d[[wname]]
    d[[wname]] <- NULL
  }
  for (j in names(d)) if (is.character(d[[j]])) d[[j]] <- byteFactor(d[[j]])
  splines <- splitList(spec$splines); linears <- splitList(spec$linears); factors <- splitList(spec$factors)
  knots <- if (is.null(spec$knots)) 20 else as.numeric(spec$knots)
  df <- if (is.null(spec$df)) 4 else as.numeric(spec$df)
  if (length(c(splines, linears, factors)) == 0) {
    fm <- as.formula(paste(resp, "~ ."))
  } else {
    d <- d[c(resp, splines, linears, factors)]
    opt <- function(key) if (is.null(spec[[key]]) || !nzchar(spec[[key]])) "" else paste0(", df = ", spec[[key]])
    terms <- c(sprintf("bbs(%s, knots = %g, df = %g, differences = 2, degree = 3)", splines, knots, df),
               sprintf("bols(%s%s)", linears, rep(opt("linear_df"), length(linears))),
               sprintf("bols(%s%s)", factors, rep(opt("factor_df"), length(factors))))
    fm <- as.formula(paste(resp, "~", paste(terms, collapse = " + ")))
  }
  family <- spec$family
  link <- if (is.null(spec$link)) "logit" else spec$link
  fam <- switch(family, gaussian = Gaussian(), binomial = Binomial(link = link), poisson = Poisson(), laplace = Laplace(),
                huber = if (is.null(spec$huber_delta)) Huber() else Huber(d = as.numeric(spec$huber_delta)), quantile = QuantReg(tau = as.numeric(spec$tau)),
                expectile = ExpectReg(tau = as.numeric(spec$tau)), adaexp = AdaExp(),
                gamma = GammaReg(), negbin = NBinomial())
  cc <- complete.cases(d)
  off <- NULL  # every family at its mboost default offset (laplace and huber: optimize over range(y))
  ctrl <- boost_control(mstop = as.integer(spec$mstop), nu = as.numeric(spec$nu))
  mod <- gamboost(fm, data = d, weights = w, family = fam, offset = off, control = ctrl)
  names <- vapply(mod$baselearner, function(b) paste(b$get_names(), collapse = ","), "")
  sw <- sum(mod$`(weights)`)
  # df(lambda) = tr(2H - H'H) straight from the n x n hat matrix H = W^1/2 X (X'WX + lambda K)^-1 X' W^1/2, to judge
  # which lambda (mboost's or the transcription's) solves df2lambda's equation better
  all <- seq_along(mod$baselearner)
  designs <- extract(mod, "design", which = all); penalties <- extract(mod, "penalty", which = all)
  indices <- lapply(mod$baselearner, function(b) b$get_index())
  wt <- mod$`(weights)`
  dfDirect <- function(i, lambda) {
    X <- as.matrix(designs[[i]])
    if (!is.null(indices[[i]])) X <- X[indices[[i]], , drop = FALSE]  # bols keeps unique rows plus an index
    X <- X * sqrt(wt)
    H <- X %*% solve(crossprod(X) + lambda * as.matrix(penalties[[i]]), t(X))
    2 * sum(diag(H)) - sum(H * H)
  }
  list(dfDirect = dfDirect, dfTarget = vapply(mod$basemodel, function(b) unname(b$df()["df"]), 0),
       fitted = mod$fitted(), risk = mod$risk() / sw, offset = unname(as.numeric(mod$offset)),
       path = unname(names[mod$xselect()]), lambda = vapply(mod$basemodel, function(b) unname(b$df()["lambda"]), 0),
       lambdaNames = names, rows = sum(cc))
}

runReference <- function(file, spec, prefix) {
  kv <- paste0(names(spec), "=", unlist(spec))
  out <- suppressWarnings(system2("Rscript", c(file.path(scripts, "mboost_family_reference.R"), file, prefix, kv),
                 stdout = TRUE, stderr = TRUE))
  status <- attr(out, "status")
  if (!is.null(status) && status != 0) stop(paste(out, collapse = "\n"))
  path <- read.csv(paste0(prefix, ".path.csv"), stringsAsFactors = FALSE, colClasses = c("integer", "character", "numeric"))
  lam <- read.csv(paste0(prefix, ".lambda.csv"), stringsAsFactors = FALSE)
  list(fitted = read.csv(paste0(prefix, ".fitted.csv"))$fitted, risk = path$risk, path = path$learner[-1],
       offset = as.numeric(readLines(paste0(prefix, ".offset.txt"))), lambda = setNames(lam$lambda, lam$learner),
       rows = length(readLines(paste0(prefix, ".rows.txt"))))
}

rel <- function(a, b) max(abs(a - b)) / max(abs(b))
results <- list()
only <- Sys.getenv("ONLY")  # a regular expression: run only the cases whose name matches (their data made lazily)
check <- function(name, file, spec) {
  if (nzchar(only) && !grepl(only, name)) return(invisible(NULL))
  ref <- tryCatch(runReference(file, spec, file.path(dir, gsub("[^A-Za-z0-9.+=-]+", "_", name))),
                  error = function(e) e)
  warns <- character(0)
  mb <- tryCatch(withCallingHandlers(fitMboost(file, spec), warning = function(w) {
    warns <<- c(warns, conditionMessage(w)); invokeRestart("muffleWarning")
  }), error = function(e) e)
  if (length(warns)) cat(sprintf("%-26s mboost warned: %s\n", name,
                                 paste(unique(gsub("\\s+", " ", warns)), collapse = " | ")))
  if (inherits(mb, "error") || inherits(ref, "error")) {
    cat(sprintf("%-26s mboost: %s | transcription: %s\n", name,
                if (inherits(mb, "error")) paste("ERROR", conditionMessage(mb)) else "ok",
                if (inherits(ref, "error")) paste("ERROR", gsub("\n", " ", conditionMessage(ref))) else "ok"))
    results[[name]] <<- data.frame(case = name, rows = NA, fitted = NA, risk = NA, offset = NA, lambda = NA,
                                   path = NA, first_diff = NA, df_err_ref = NA, df_err_mboost = NA)
    return(invisible())
  }
  lamRef <- unname(ref$lambda[mb$lambdaNames]); mb$lambda <- unname(mb$lambda)
  lamRel <- max(ifelse(mb$lambda == 0, abs(lamRef), abs(lamRef - mb$lambda) / abs(mb$lambda)))
  pen <- which(mb$lambda > 0)
  dfErr <- function(lams) max(0, vapply(pen, function(i) abs(mb$dfDirect(i, lams[i]) - mb$dfTarget[i]), 0))
  dfRef <- dfErr(lamRef); dfMb <- dfErr(mb$lambda)
  same <- identical(ref$path, mb$path) && length(ref$fitted) == length(mb$fitted)
  firstDiff <- if (identical(ref$path, mb$path)) NA else which(ref$path != mb$path)[1]
  r <- data.frame(row.names = NULL, case = name, rows = ref$rows, fitted = if (length(ref$fitted) == length(mb$fitted)) rel(ref$fitted, mb$fitted) else NA,
                  risk = rel(ref$risk, mb$risk),
                  offset = abs(ref$offset - mb$offset) / max(abs(mb$offset), 1e-300), lambda = lamRel,
                  path = same, first_diff = firstDiff, df_err_ref = dfRef, df_err_mboost = dfMb)
  results[[name]] <<- r
  cat(sprintf("%-26s rows %4d  fitted %.2e  risk %.2e  offset %.1e  lambda %.2e  |df-target| %.0e/%.0e  path %s%s\n",
              name, r$rows, r$fitted, r$risk, r$offset, r$lambda, dfRef, dfMb, if (same) "identical" else "DIFFERS",
              if (is.na(firstDiff)) "" else paste(" from iteration", firstDiff)))
}

# --- generated data: one file per family (and weighted variants) ---
gen <- function(family, weights = "0", rows = 400) {
  file <- file.path(dir, sprintf("%s-w%s-n%d.csv", family, weights, rows))
  system2("Rscript", c(file.path(scripts, "write_family_data.R"), file, family, seed, rows, weights), stdout = FALSE)
  file
}
base <- list(response = "y", splines = paste0("x", 1:8, collapse = ","), linears = "lin", factors = "fac",
             knots = "12", df = "4", linear_df = "4", factor_df = "4", nu = "0.1", mstop = "100")
families <- list(gaussian = list(family = "gaussian"), binomial = list(family = "binomial"),
                 poisson = list(family = "poisson"), laplace = list(family = "laplace"),
                 huber = list(family = "huber", huber_delta = "2"), quantile = list(family = "quantile", tau = "0.9"),
                 expectile = list(family = "expectile", tau = "0.2"), adaexp = list(family = "adaexp"),
                 gamma = list(family = "gamma"), negbin = list(family = "negbin"))
for (f in names(families)) {
  check(f, gen(f), c(base, families[[f]]))
  if (!(f %in% c("quantile", "expectile")))  # expectile: rescaled real weights leave no row of weight 1
    check(paste0(f, "+weights"), gen(f, "1"), c(base, families[[f]], weights = "w"))
  else
    check(paste0(f, "+int.weights"), gen(f, "2"), c(base, families[[f]], weights = "w"))
}
check("huber adaptive d", gen("huber"), c(base, list(family = "huber")))  # Huber(): d = NULL
check("huber adaptive d+weights", gen("huber", "1"), c(base, list(family = "huber"), weights = "w"))
for (lk in c("probit", "cloglog", "cauchit")) {  # Binomial(link = ...)
  check(paste0("binomial ", lk), gen("binomial"), c(base, families$binomial, link = lk))
  check(paste0("binomial ", lk, "+weights"), gen("binomial", "1"), c(base, families$binomial, link = lk, weights = "w"))
}
# ridge-penalised linear and factor learners (df below their rank), and more iterations
for (f in c("gaussian", "binomial", "poisson")) {
  s <- modifyList(c(base, families[[f]]), list(linear_df = "1.5", factor_df = "2", mstop = "300", knots = "20"))
  check(paste0(f, " ridge lin/fac"), gen(f, "1"), c(s, weights = "w"))
}
check("gaussian n=900", gen("gaussian", "0", 900), c(base, families$gaussian))  # mboost's sparse Matrix path
check("gaussian y ~ .", gen("gaussian"), list(response = "y", family = "gaussian", nu = "0.1", mstop = "100"))

# --- R's data sets, written by write.csv ---
ds <- list(airquality = airquality, iris = iris, mtcars = mtcars, quakes = quakes)
if (requireNamespace("TH.data", quietly = TRUE)) ds$bodyfat <- get(data("bodyfat", package = "TH.data", envir = environment()))
files <- list()
for (nm in names(ds)) { files[[nm]] <- file.path(dir, paste0(nm, ".csv")); write.csv(ds[[nm]], files[[nm]]) }
dflt <- list(family = "gaussian", nu = "0.1", mstop = "100")
check("airquality Ozone ~ .", files$airquality, c(list(response = "Ozone"), dflt))
check("iris Sepal.Length ~ .", files$iris, c(list(response = "Sepal.Length"), dflt))
check("mtcars mpg ~ .", files$mtcars, c(list(response = "mpg"), dflt))
check("mtcars mpg ~ 5 splines", files$mtcars, c(list(response = "mpg", splines = "disp,hp,drat,wt,qsec"), dflt))
check("mtcars mpg ~ 6 splines", files$mtcars, c(list(response = "mpg", splines = "disp,hp,drat,wt,qsec,carb"), dflt))
check("quakes mag ~ .", files$quakes, c(list(response = "mag"), dflt))
if (!is.null(files$bodyfat)) check("bodyfat DEXfat ~ .", files$bodyfat, c(list(response = "DEXfat"), dflt))
check("airquality quantile .9", files$airquality, list(response = "Ozone", family = "quantile", tau = "0.9", nu = "0.1", mstop = "100"))
check("airquality laplace", files$airquality, list(response = "Ozone", family = "laplace", nu = "0.1", mstop = "100"))
check("quakes stations poisson", files$quakes, list(response = "stations", family = "poisson", nu = "0.1", mstop = "100"))
check("quakes stations poisson nu=.01", files$quakes, list(response = "stations", family = "poisson", nu = "0.01", mstop = "100"))
files$warpbreaks <- file.path(dir, "warpbreaks.csv"); write.csv(warpbreaks, files$warpbreaks)
# two unpenalised factors: at nu = 0.1 the Poisson fit oscillates (risk jumping between 6 and 100) and rounding
# decides the path after ~70 iterations in both programs; nu = 0.01 converges
check("warpbreaks poisson nu=.1", files$warpbreaks, list(response = "breaks", family = "poisson", nu = "0.1", mstop = "100"))
check("warpbreaks poisson nu=.01", files$warpbreaks, list(response = "breaks", family = "poisson", nu = "0.01", mstop = "200"))
check("quakes stations negbin", files$quakes, list(response = "stations", family = "negbin", nu = "0.1", mstop = "100"))
check("warpbreaks negbin nu=.01", files$warpbreaks, list(response = "breaks", family = "negbin", nu = "0.01", mstop = "200"))
if (requireNamespace("MASS", quietly = TRUE)) {  # the classic overdispersed counts: days absent from school
  files$quine <- file.path(dir, "quine.csv"); write.csv(MASS::quine, files$quine)
  check("quine Days negbin", files$quine, list(response = "Days", family = "negbin", nu = "0.1", mstop = "100"))
}
check("iris huber adaptive d", files$iris, list(response = "Sepal.Length", family = "huber", nu = "0.1", mstop = "100"))
check("airquality huber adaptive d", files$airquality, list(response = "Ozone", family = "huber", nu = "0.1", mstop = "100"))
check("iris huber d=0.3", files$iris, list(response = "Sepal.Length", family = "huber", huber_delta = "0.3", nu = "0.1", mstop = "100"))

all <- do.call(rbind, results)
rownames(all) <- NULL
ok <- all[!is.na(all$fitted) & all$case != "warpbreaks poisson nu=.1", ]
cat(sprintf("\nworst over %d compared cases: fitted %.2e, risk %.2e, offset %.1e, lambda %.2e; paths identical in %d of %d\n",
            nrow(ok), max(ok$fitted), max(ok$risk), max(ok$offset), max(ok$lambda), sum(ok$path), nrow(ok)))
cat(sprintf("df(lambda) from the n x n hat matrix, worst |df - target|: transcription %.1e, mboost %.1e\n",
            max(ok$df_err_ref), max(ok$df_err_mboost)))
write.csv(all, file.path(dir, "summary.csv"), row.names = FALSE)
