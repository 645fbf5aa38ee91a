# Used by tests/engine/test_csv_rdata.cpp: Rscript write_random.R SEED DIR
# Writes random.csv (write.csv of x, z, f: random numbers, NA cells, a text column with mixed-case and
# non-ASCII texts) and beside it: levels.txt, the levels of f in byte order (sort(method = "radix"), as in the
# C locale); f.txt, f per row (<NA> for missing); numbers.txt, x and z as R reads random.csv back, then x and z
# as R held them, each value printed by format(v, digits = 17).
args <- commandArgs(TRUE)
set.seed(as.integer(args[1]))
dir <- args[2]
n <- 3000
x <- rnorm(n) * 10^sample(-8:8, n, TRUE)
x[sample(n, 150)] <- NA
z <- round(runif(n, -100, 100), sample(0:6, n, TRUE))
z[sample(n, 40)] <- NA
pool <- c("alpha", "Alpha", "ALPHA", "beta", "Beta", "_x", "a b", "zeta", "1.5", "10", "na", "Z",
          "\u00e9t\u00e9", "\u00c9t\u00e9", "\u00e9", "e\u0301", "\u65e5\u672c", "\U0001F600", "quote\"d", "com,ma")
f <- sample(pool, n, TRUE)
f[sample(n, 200)] <- NA
f[1:20] <- sample(c("1.5", "10", NA), 20, TRUE)  # numbers first: the column turns text later
write.csv(data.frame(x = x, z = z, f = f), file.path(dir, "random.csv"), fileEncoding = "UTF-8")
lev <- sort(unique(f[!is.na(f)]), method = "radix")
writeLines(enc2utf8(lev), file.path(dir, "levels.txt"), useBytes = TRUE)
writeLines(enc2utf8(ifelse(is.na(f), "<NA>", f)), file.path(dir, "f.txt"), useBytes = TRUE)
back <- read.csv(file.path(dir, "random.csv"), encoding = "UTF-8")
fmt <- function(v) vapply(v, function(e) format(e, digits = 17), "")
writeLines(c(fmt(back$x), fmt(back$z), fmt(x), fmt(z)), file.path(dir, "numbers.txt"))
