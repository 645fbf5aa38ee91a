suppressMessages(library(mboost))
d <- read.csv("/tmp/smoke/bin1e4.csv")
d$y <- factor(d$y)
xs <- setdiff(names(d), "y")
f <- as.formula(paste("y ~", paste(sprintf("bbs(%s, knots = 12, df = 4)", xs), collapse = " + ")))
t <- system.time(m <- gamboost(f, data = d, family = Binomial(), control = boost_control(mstop = 100, nu = 0.1)))
cat(sprintf("mboost %s: gamboost binomial n = %d, p = %d, knots 12, mstop 100: %.2f s elapsed (user %.2f)\n",
            packageVersion("mboost"), nrow(d), length(xs), t[["elapsed"]], t[["user.self"]]))
cat(sprintf("final risk / n = %.12g\n", tail(risk(m), 1) / nrow(d)))
