# Times mboost's cvrisk with 25 bootstrap folds (docs/performance.md, "Cross-validation on 2 cores"); never run in CI.
# Usage: Rscript mboost-cvrisk-time.R DATA.csv gaussian|binomial
# The model is gamboost(y ~ ., baselearner = "bbs", dfbase = 4) with the knots of our benchmark (12; bbs's default
# is 20), degree 3, differences 2, mstop 100, nu 0.1: the formula is spelled out because y ~ . cannot pass knots.
# cvrisk runs the folds with mclapply on getOption("mc.cores", 2) cores, as our CPU backend runs one fold per core.
suppressMessages(library(mboost))
args <- commandArgs(trailingOnly = TRUE)
d <- read.csv(args[1])
family <- if (length(args) > 1 && args[2] == "binomial") Binomial() else Gaussian()
if (length(args) > 1 && args[2] == "binomial") d$y <- factor(d$y)
xs <- setdiff(names(d), "y")
f <- as.formula(paste("y ~", paste(sprintf("bbs(%s, knots = 12, df = 4)", xs), collapse = " + ")))
fit <- system.time(model <- gamboost(f, data = d, family = family, control = boost_control(mstop = 100, nu = 0.1)))
set.seed(1)
folds <- cv(model.weights(model), type = "bootstrap", B = 25)
cvt <- system.time(cvr <- cvrisk(model, folds = folds))
cat(sprintf("mboost %s, %s, n = %d, p = %d: gamboost %.2f s elapsed; cvrisk 25 bootstrap folds %.2f s elapsed (user %.2f, mc.cores %d); mstop %d\n",
            packageVersion("mboost"), args[2], nrow(d), length(xs), fit[["elapsed"]], cvt[["elapsed"]],
            cvt[["user.self"]] + cvt[["user.child"]], getOption("mc.cores", 2L), mstop(cvr)))
