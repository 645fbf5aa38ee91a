# An independent plain-R transcription (base R + splines; no mboost) of mboost 2.9's
#   gamboost(y ~ bbs(x1, knots = K, df = D, differences = 2, degree = 3) + ... + bols(lin) + bols(fac),
#            data, weights = w, family = F, offset = ..., control = boost_control(mstop = M, nu = NU))
# for the families Gaussian(), Binomial() (adaboost type; logit or a make.link() link), Poisson(), Laplace(),
# Huber(d), QuantReg(tau), ExpectReg(tau), AdaExp(), GammaReg() and NBinomial(), with case weights and missing values,
# as mboost_fit() (R/mboost.R), the families
# (R/family.R), bbs/bols/df2lambda (R/bl.R) and rescale_weights (R/helpers.R) define them. Used by
# tests/reference/test_family_references.cpp to check `gamboost fit`; checked against the real mboost by
# check_family_reference_vs_mboost.R (docs/reference-checks.md has the numbers).
#
# Usage: Rscript mboost_family_reference.R data.csv out_prefix key=value ...
#   response=y  family=gaussian|binomial|poisson|laplace|huber|quantile|expectile|adaexp|gamma|negbin  huber_delta=2 (left out: Huber()'s adaptive d)  tau=0.5
#   link=logit|probit|cloglog|cauchit (binomial only: Binomial(link = ...); logit is mboost's classic half-log-odds
#   family, the others R's make.link() with f on the link scale)
#   weights=COLUMN (empty: none)  splines=a,b  linears=c  factors=d  knots=20  df=4 (splines)
#   linear_df= factor_df= (empty: lambda 0)  nu=0.1  mstop=100  offset= (empty: the family's; laplace and huber:
#   Family()'s default, optimize() of the weighted risk over range(y))
# With none of splines/linears/factors, every numeric column other than response and weights is a bbs(df = df) and
# every text column a factor bols with lambda 0 (gamboost's y ~ ., dfbase = 4).
# Writes out_prefix.fitted.csv (f on the link scale, one value per used row), out_prefix.path.csv
# (iteration,learner,risk; row 0 is the offset; risk = sum(w * loss) / sum(w)), out_prefix.offset.txt,
# out_prefix.lambda.csv (learner,type,lambda) and out_prefix.rows.txt (1-based data rows used, in order).
#
# Sourced (source("mboost_family_reference.R")), it defines the functions and runs nothing:
#   model <- mbrPrepare(data.csv, mbrOptions(c("key=value", ...)))  # data, na.omit, family, designs, case weights
#   fit <- mbrFit(model, w = model$w, riskWeights = w)               # mboost_fit with these (rescaled) weights
# mboost_cvrisk_reference.R uses them for cvrisk().

# Errors read "Error: message" (no call), as they did when this script ran at top level.
mbrStop <- function(...) stop(..., call. = FALSE)

# mboost's Family() default offset (R/family.R), which Laplace() and Huber() keep.
familyOffset <- function(loss, y, w) {
  risk <- function(y, f, w = 1) sum(w * loss(y, f), na.rm = TRUE)
  optimize(risk, interval = range(y), y = y, w = w)$minimum
}
mbrOptions <- function(kv) {
  opt <- list(response = "y", family = "gaussian", link = "logit", huber_delta = "", tau = "0.5", weights = "", splines = "",
              linears = "", factors = "", knots = "20", df = "4", linear_df = "", factor_df = "", nu = "0.1",
              mstop = "100", offset = "")
  for (a in kv) {
    eq <- regexpr("=", a, fixed = TRUE)
    if (eq < 1) mbrStop("argument '", a, "' is not key=value")
    key <- substr(a, 1, eq - 1)
    if (!key %in% names(opt)) mbrStop("unknown key '", key, "'")
    opt[[key]] <- substr(a, eq + 1, nchar(a))
  }
  opt
}
splitList <- function(s) if (nzchar(s)) strsplit(s, ",", fixed = TRUE)[[1]] else character(0)
numberOrNull <- function(s) if (nzchar(s)) as.numeric(s) else NULL
byteLevels <- function(x) sort(unique(x), method = "radix")  # C-locale byte order
# mboost's rescale_weights (R/helpers.R): non-integer weights become w / sum(w) * sum(w > 0)
rescaleWeights <- function(w) if (max(abs(w - floor(w))) >= sqrt(.Machine$double.eps)) w / sum(w) * sum(w > 0) else w

# The model frame, the family and the (weight-free) designs; model$w: the rescaled case weights.
mbrPrepare <- function(file, opt) {
  # --- data: R's read.csv; write.csv's unnamed first column holds row labels and is dropped ---
  data <- read.csv(file, stringsAsFactors = FALSE, check.names = FALSE)
  if (ncol(data) > 0 && names(data)[1] == "") data <- data[-1]
  for (j in seq_along(data)) if (is.logical(data[[j]])) data[[j]] <- ifelse(is.na(data[[j]]), NA, as.character(data[[j]]))
  response <- opt$response
  family <- opt$family
  wname <- opt$weights
  if (!response %in% names(data)) mbrStop("no column '", response, "'")
  splines <- splitList(opt$splines); linears <- splitList(opt$linears); factors <- splitList(opt$factors)
  if (length(c(splines, linears, factors)) == 0) {  # gamboost(y ~ .): every other column, in data column order
    others <- setdiff(names(data), c(response, wname))
    learners <- data.frame(name = others, type = ifelse(vapply(data[others], is.numeric, logical(1)), "spline", "factor"),
                           stringsAsFactors = FALSE)
  } else {
    learners <- data.frame(name = c(splines, linears, factors),
                           type = rep(c("spline", "linear", "factor"), c(length(splines), length(linears), length(factors))),
                           stringsAsFactors = FALSE)
  }
  missingCols <- setdiff(c(learners$name, wname[nzchar(wname)]), names(data))
  if (length(missingCols)) mbrStop("no column(s) ", paste(missingCols, collapse = ", "))

  # --- missing values: na.omit on the model frame (response, weights, every used column) ---
  used <- c(response, learners$name, wname[nzchar(wname)])
  nAll <- nrow(data)
  rows <- which(complete.cases(data[used]))
  data <- data[rows, , drop = FALSE]
  n <- nrow(data)
  if (n == 0) mbrStop("no complete rows")

  w <- if (nzchar(wname)) as.numeric(data[[wname]]) else rep(1, n)
  # QuantReg() declares weights = "case": mboost_fit stops before rescaling unless they are integers.
  if (family == "quantile" && !isTRUE(all.equal(unique(w - floor(w)), 0)))
    mbrStop("family QuantReg is not able to deal with weights (not integers)")
  w <- rescaleWeights(w)

  # --- family (R/family.R) ---
  yraw <- data[[response]]
  if (family %in% c("binomial", "adaexp")) {
    lev <- byteLevels(as.character(yraw))
    if (is.numeric(yraw)) lev <- as.character(sort(unique(yraw)))
    if (length(lev) != 2) mbrStop("binomial: the response has ", length(lev), " levels, not 2")
    y <- c(-1, 1)[match(as.character(yraw), lev)]  # second level = +1
  } else {
    if (!is.numeric(yraw)) mbrStop("response '", response, "' is not numeric")
    y <- as.numeric(yraw)
  }
  if (opt$link != "logit" && family != "binomial") mbrStop("link '", opt$link, "' is for the binomial only")
  if (family == "binomial" && opt$link != "logit") family <- "binomial_link"
  fam <- switch(family,
    gaussian = list(ngradient = function(y, f) y - f, loss = function(y, f) (y - f)^2,
                    offset = function(y, w) weighted.mean(y, w)),
    binomial = list(
      ngradient = function(y, f) { exp2yf <- exp(-2 * y * f); -(-2 * y * exp2yf) / (log(2) * (1 + exp2yf)) },
      loss = function(y, f) {
        f <- pmin(abs(f), 36) * sign(f)
        p <- exp(f) / (exp(f) + exp(-f))
        y <- (y + 1) / 2
        -y * log(p) - (1 - y) * log(1 - p)
      },
      offset = function(y, w) { p <- weighted.mean(y > 0, w); 1/2 * log(p / (1 - p)) }),
    # Binomial(link = L) for a glm link L: p = linkinv(f), y01 = (y + 1) / 2
    binomial_link = {
      lk <- make.link(opt$link)
      list(ngradient = function(y, f) { y <- (y + 1) / 2; p <- lk$linkinv(f); lk$mu.eta(f) * (y / p - (1 - y) / (1 - p)) },
           loss = function(y, f) { p <- lk$linkinv(f); y <- (y + 1) / 2; -y * log(p) - (1 - y) * log(1 - p) },
           offset = function(y, w) lk$linkfun(weighted.mean(y > 0, w)))
    },
    poisson = list(ngradient = function(y, f) y - exp(f), loss = function(y, f) -dpois(y, exp(f), log = TRUE),
                   offset = function(y, w) log(weighted.mean(y, w))),
    # Laplace and Huber keep Family()'s default offset, optimize(risk, interval = range(y), y = y, w = w)$minimum
    # with risk = sum(w * loss(y, f), na.rm = TRUE) (within optimize's tolerance of the weighted median).
    laplace = list(ngradient = function(y, f) sign(y - f), loss = function(y, f) abs(y - f),
                   offset = function(y, w) familyOffset(function(y, f) abs(y - f), y, w)),
    huber = if (!nzchar(opt$huber_delta)) {
      # Huber() with its adaptive d: a closure keeps the f of the last ngradient (0 at first); ngradient takes
      # d = median(abs(y - that f)) and then keeps its own f, the loss takes d from the f kept
      fitS <- 0
      list(ngradient = function(y, f) {
             d <- median(abs(y - fitS)); fitS <<- f
             ifelse(abs(y - f) < d, y - f, d * sign(y - f))
           },
           loss = function(y, f) { d <- median(abs(y - fitS)); ifelse((a <- abs(y - f)) < d, a^2/2, d * (a - d/2)) },
           offset = function(y, w) familyOffset(function(y, f) {  # before the first ngradient: fitS is still 0
             d <- median(abs(y - fitS)); ifelse((a <- abs(y - f)) < d, a^2/2, d * (a - d/2))
           }, y, w))
    } else {
      d <- as.numeric(opt$huber_delta)
      if (!is.finite(d) || d <= 0) mbrStop("huber needs huber_delta > 0")
      list(ngradient = function(y, f) ifelse(abs(y - f) < d, y - f, d * sign(y - f)),
           loss = function(y, f) ifelse((a <- abs(y - f)) < d, a^2/2, d * (a - d/2)),
           offset = function(y, w) familyOffset(function(y, f) ifelse((a <- abs(y - f)) < d, a^2/2, d * (a - d/2)), y, w))
    },
    quantile = {
      tau <- as.numeric(opt$tau)
      list(ngradient = function(y, f) tau * ((y - f) >= 0) - (1 - tau) * ((y - f) < 0),
           loss = function(y, f) tau * (y - f) * ((y - f) >= 0) - (1 - tau) * (y - f) * ((y - f) < 0),
           offset = function(y, w) quantile(y[rep(1:length(y), w)], 0.5))  # qoffset = 0.5, whatever tau is
    },
    # AdaExp: AdaBoost's exponential loss on the -1/+1 response, the binomial's offset
    adaexp = list(ngradient = function(y, f) y * exp(-y * f), loss = function(y, f) exp(-y * f),
                  offset = function(y, w) { p <- weighted.mean(y > 0, w); 1/2 * log(p / (1 - p)) }),
    # GammaReg: the shape sigma is optimize()d over (0, 100) at the current f inside every ngradient, and the risk
    # uses the sigma of the last ngradient; the offset is optimize(risk, c(0, max(y^2))) at the starting sigma 1.
    gamma = {
      sigma <- 1
      plloss <- function(s, y, f) lgamma(s) + s * y * exp(-f) - s * log(y) - s * log(s) + s * f
      list(ngradient = function(y, f, w) {
             sigma <<- optimize(function(s) sum(w * plloss(s, y, f)), interval = c(0, 100))$minimum
             sigma * y * exp(-f) - sigma
           },
           loss = function(y, f) plloss(sigma, y, f),
           offset = function(y, w) optimize(function(f) sum(w * plloss(sigma, y, f)), interval = c(0, max(y^2)))$minimum,
           needsWeights = TRUE)
    },
    # NBinomial: the size sigma is optimize()d over (0, 100) at the current f inside every ngradient, as GammaReg's
    # shape; the risk uses the sigma of the last ngradient; the offset is log(weighted.mean(y, w)).
    negbin = {
      sigma <- 1
      plloss <- function(s, y, f)
        -(lgamma(y + s) - lgamma(s) - lgamma(y + 1) + s * log(s) - s * log(exp(f) + s) + y * f - y * log(exp(f) + s))
      list(ngradient = function(y, f, w) {
             sigma <<- optimize(function(s) sum(w * plloss(s, y, f)), interval = c(0, 100))$minimum
             y - (y + sigma) / (exp(f) + sigma) * exp(f)
           },
           loss = function(y, f) plloss(sigma, y, f),
           offset = function(y, w) log(weighted.mean(y, w)),
           needsWeights = TRUE)
    },
    # ExpectReg: its offset is the plain mean of the rows whose (rescaled) weight is exactly 1
    expectile = {
      tau <- as.numeric(opt$tau)
      list(ngradient = function(y, f) 2 * tau * (y - f) * ((y - f) > 0) - 2 * (1 - tau) * (f - y) * ((y - f) < 0),
           loss = function(y, f) tau * (y - f)^2 * ((y - f) >= 0) + (1 - tau) * (y - f)^2 * ((y - f) < 0),
           offset = function(y, w) mean(y[w == 1]))
    },
    mbrStop("unknown family '", family, "'"))
  if (family %in% c("poisson", "negbin") && (any(y < 0) || any((y - round(y)) > 0)))
    mbrStop(family, ": response is not a count")

  # --- base learners (R/bl.R): designs from all used rows (knots from their range); lambda comes with the weights ---
  knots <- as.integer(opt$knots); df <- as.numeric(opt$df); degree <- 3L; differences <- 2L
  bbsBasis <- function(x) {  # bbs / bsplines(): equidistant interior knots, grid continued degree steps outside
    bk <- range(x)
    inner <- seq(from = bk[1], to = bk[2], length = knots + 2)
    inner <- inner[2:(length(inner) - 1)]
    dx <- diff(bk) / (length(inner) + 1)
    lower <- seq(bk[1] - degree * dx, bk[1], length = degree + 1)
    upper <- seq(bk[2], bk[2] + degree * dx, length = degree + 1)
    splines::splineDesign(c(lower, inner, upper), x, degree + 1, outer.ok = TRUE)
  }
  designLearner <- function(name, type) {
    x <- data[[name]]
    if (type == "spline") {
      if (!is.numeric(x)) mbrStop("spline learner '", name, "' is not numeric")
      X <- bbsBasis(x)
      D <- diff(diag(ncol(X)), differences = differences)
      dfl <- df
    } else if (type == "linear") {
      if (!is.numeric(x)) mbrStop("linear learner '", name, "' is not numeric")
      X <- cbind(1, x)  # bols(x): intercept + x, ridge on both
      D <- diag(2)
      dfl <- numberOrNull(opt$linear_df)
    } else {
      lev <- byteLevels(as.character(x))
      f <- match(as.character(x), lev)
      X <- cbind(1, outer(f, seq_along(lev)[-1], "=="))  # contr.treatment against the first level
      storage.mode(X) <- "double"
      D <- diag(ncol(X))
      dfl <- numberOrNull(opt$factor_df)
    }
    list(name = name, type = type, X = X, D = D, df = dfl)
  }
  designs <- Map(designLearner, learners$name, learners$type)

  list(opt = opt, learners = learners, rows = rows, nAll = nAll, n = n, y = y, w = w, fam = fam, designs = designs,
       nu = as.numeric(opt$nu), mstop = as.integer(opt$mstop), offsetArg = numberOrNull(opt$offset))
}

# df2lambda() as mboost 2.9 computes it (R/bl.R): df >= rank(X) (Matrix::rankMatrix(X, method = "qr"), unweighted X)
# gives lambda 0; otherwise A = X'WX + 1e-9 K (options("mboost_eps")) made positive definite by make_psd()
# (R/helpers.R), d = the singular values of Rm' K Rm with Rm = chol(A)^-1, df(lambda) = 2 sum 1/(1 + lambda d) -
# sum 1/(1 + lambda d)^2, and lambda = uniroot(df - target, c(0, 1e15), tol = sqrt(eps)) (1e15 =
# options("mboost_lambdaMax") where df stays above the target). The perturbation and uniroot's tolerance move lambda
# off the exact root of the unperturbed equation (up to 1e-5 relative where X'WX is singular, e.g. a covariate with
# few distinct values); mboost's fits follow this lambda, so the transcription does too.
makePsd <- function(x, eps = sqrt(.Machine$double.eps)) {
  lambda <- min(eigen(x, only.values = TRUE, symmetric = TRUE)$values) - sqrt(.Machine$double.eps)
  if (lambda < -1e-10) {
    rho <- 1 / (1 - lambda)
    x <- makePsd(rho * x + (1 - rho) * diag(dim(x)[1]))
  }
  x
}
df2lambda <- function(X, w, D, df) {
  if (is.null(df)) return(0)
  rankX <- qr(if (nrow(X) < ncol(X)) t(X) else X, tol = max(dim(X)) * .Machine$double.eps, LAPACK = FALSE)$rank
  if (df >= rankX) return(0)
  K <- crossprod(D)
  A <- makePsd(crossprod(X * w, X) + K * 10e-10)
  Rm <- backsolve(chol(A), x = diag(ncol(X)))
  d <- svd(crossprod(Rm, K) %*% Rm, nu = 0, nv = 0)$d
  if (df >= length(d)) return(0)
  dfFun <- function(l) 2 * sum(1 / (1 + l * d)) - sum(1 / (1 + l * d)^2)
  g <- function(l) dfFun(l) - df
  if (g(1e15) > 0) return(1e15)
  uniroot(g, c(0, 1e15), tol = sqrt(.Machine$double.eps))$root
}

# --- mboost_fit (R/mboost.R) with fitting weights w (already rescaled: rescaleWeights) and risk weights riskWeights
# (mboost's oobweights when control$risk = "oobag"); risk[m + 1] = sum(riskWeights * loss(y, f_m)) / sum(riskWeights).
# The offset (unless opt$offset is given) and every lambda are computed from w. ---
mbrFit <- function(model, w = model$w, riskWeights = w) {
  y <- model$y; fam <- model$fam; n <- model$n; nu <- model$nu; mstop <- model$mstop
  bl <- lapply(model$designs, function(b) {
    lambda <- df2lambda(b$X, w, b$D, b$df)
    list(name = b$name, type = b$type, X = b$X, A = crossprod(b$X * w, b$X) + lambda * crossprod(b$D), lambda = lambda)
  })
  offset <- if (is.null(model$offsetArg)) as.numeric(fam$offset(y, w)) else model$offsetArg
  f <- rep(offset, n)
  riskOf <- function(f) sum(riskWeights * fam$loss(y, f)) / sum(riskWeights)
  # mboost_fit's order: the negative gradient at f first (GammaReg's sigma is set there), then the risk at f
  ngradient <- function(f) if (isTRUE(fam$needsWeights)) fam$ngradient(y, f, w) else fam$ngradient(y, f)
  u <- ngradient(f)
  risk <- numeric(mstop + 1); risk[1] <- riskOf(f)
  path <- character(mstop)
  for (m in seq_len(mstop)) {
    if (any(!is.finite(u))) mbrStop("Infinite residuals in iteration ", m, " (as mboost_fit: decrease nu)")
    fits <- lapply(bl, function(b) as.vector(b$X %*% solve(b$A, crossprod(b$X, u * w))))
    tsums <- vapply(fits, function(fit) mean(w * (fit - u)^2), numeric(1))
    j <- which.min(tsums)
    if (length(j) == 0) mbrStop("could not fit any base-learner in boosting iteration ", m)
    f <- f + nu * fits[[j]]
    path[m] <- bl[[j]]$name
    u <- ngradient(f)
    risk[m + 1] <- riskOf(f)
  }
  list(f = f, risk = risk, path = path, offset = offset, lambda = vapply(bl, `[[`, numeric(1), "lambda"))
}

mbrMain <- function(args) {
  if (length(args) < 2) mbrStop("usage: Rscript mboost_family_reference.R data.csv out_prefix key=value ...")
  file <- args[1]
  prefix <- args[2]
  model <- mbrPrepare(file, mbrOptions(args[-(1:2)]))
  fit <- mbrFit(model)
  mstop <- model$mstop
  write.table(data.frame(fitted = sprintf("%.17g", fit$f)), paste0(prefix, ".fitted.csv"), row.names = FALSE,
              quote = FALSE)
  write.table(data.frame(iteration = 0:mstop, learner = c("(offset)", fit$path), risk = sprintf("%.17g", fit$risk)),
              paste0(prefix, ".path.csv"), row.names = FALSE, quote = FALSE, sep = ",")
  writeLines(sprintf("%.17g", fit$offset), paste0(prefix, ".offset.txt"))
  write.table(data.frame(learner = model$learners$name, type = model$learners$type,
                         lambda = sprintf("%.17g", fit$lambda)),
              paste0(prefix, ".lambda.csv"), row.names = FALSE, quote = FALSE, sep = ",")
  writeLines(as.character(model$rows), paste0(prefix, ".rows.txt"))
  cat(sprintf("rows used %d of %d; offset %.17g; final risk %.17g\n", model$n, model$nAll, fit$offset,
              fit$risk[mstop + 1]))
}

if (sys.nframe() == 0L) mbrMain(commandArgs(trailingOnly = TRUE))  # run by Rscript, not source()d
