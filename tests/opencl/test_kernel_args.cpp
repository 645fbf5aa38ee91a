// Every argument struct of opencl/KernelArgs.hpp (and the family and linear/factor launchers) binds exactly the
// parameters of its kernel: bind() must set CL_KERNEL_NUM_ARGS arguments, each of the size the built kernel expects
// (clSetKernelArg refuses a wrong size, which Kernel::arg turns into an exception). A .cl parameter list that gains,
// loses or reorders a parameter of another size therefore fails here, not silently at run time.
#include <QtTest>
#include <set>
#include <string>

#include "OpenClTestUtil.hpp"
#include "opencl/CompactKernels.hpp"
#include "opencl/DenseKernelParameters.hpp"
#include "opencl/FamilyKernels.hpp"
#include "opencl/FoldKernelArgs.hpp"
#include "opencl/KernelArgs.hpp"
#include "opencl/OlsKernels.hpp"
#include "spline/SplineBasis.hpp"

using namespace gb::ocl;

namespace {

std::set<std::string>& checked() {
  static std::set<std::string> names;
  return names;
}

cl_uint declaredArgs(const Kernel& k) {
  cl_uint count = 0;
  check(clGetKernelInfo(k.get(), CL_KERNEL_NUM_ARGS, sizeof count, &count, nullptr), "clGetKernelInfo");
  return count;
}

// The build options of a compact plan (REAL, K, group sizes, ...) for a small problem in the given kernel kind.
struct Plan {
  std::vector<double> x = gbocltest::uniform(512, 0.0, 1.0, 3);
  gb::SplineBasis basis{0.0, 1.0, gb::SplineSpec{6, 3, gb::Boundary::Extended}};
  std::unique_ptr<CompactData> data;
  std::unique_ptr<CompactPlan> plan;
  Plan(Context& ctx, CompactKernel kind, bool gpu) {
    data = std::make_unique<CompactData>(ctx, std::vector<const gb::SplineBasis*>{&basis, &basis},
                                         std::vector<const double*>{x.data(), x.data()}, x.size(), false,
                                         kind == CompactKernel::Compact, kind == CompactKernel::Sorted);
    gb::ComputeDeviceInfo info = ctx.device().info;
    if (gpu) info.type = "GPU";
    KernelParameters params = kernelParameters(info, x.size(), 2);
    if (gpu) params.nvidiaAtomics = false;
    plan = std::make_unique<CompactPlan>(ctx, *data, kind, params);
  }
};

}  // namespace

class TestKernelArgs : public QObject {
  Q_OBJECT

 private slots:
  void initTestCase() { gbocltest::testDevice(); }

  void compactAndIterationKernels_data() {
    QTest::addColumn<bool>("gpu");
    QTest::newRow("cpu parameters") << false;
    QTest::newRow("gpu parameters") << true;
  }
  void compactAndIterationKernels() {
    QFETCH(bool, gpu);
    Context ctx(gbocltest::testDevice());
    Plan p(ctx, CompactKernel::CompactX, gpu);
    const std::string& o = p.plan->options();
    // Some kernels exist only in the CPU or only in the GPU build of a program (#if on the parameters): each is
    // checked in whichever builds have it, and every one in at least one (checkedAll).
    auto expectBound = [&](const char* file, const char* name, auto args) {
      cl_int status = CL_SUCCESS;
      cl_kernel raw = clCreateKernel(ctx.program(file, o), name, &status);
      if (status == CL_INVALID_KERNEL_NAME) return;
      check(status, "clCreateKernel");
      Kernel k(raw);
      QCOMPARE(args.bind(k), declaredArgs(k));
      checked().insert(name);
    };
    const RealArg r{1.0, false};
    expectBound("learner_select", "learner_solve", LearnerSolveArgs{});
    expectBound("learner_select", "learner_select", LearnerSelectArgs{0, {}, {}, RecordArgs{r, {}, 0, {}, r}});
    expectBound("learner_select", "learner_solve_select",
                LearnerSolveSelectArgs{0, {}, {}, {}, {}, {}, RecordArgs{r, {}, 0, {}, r}});
    {
      LearnerSolveSelectTrackedArgs tracked{0, {}, {}, {}, {}, {}, RecordArgs{r, {}, 0, {}, r}};
      tracked.margin = tracked.promote = r;
      expectBound("learner_select", "learner_solve_select_tracked", tracked);
    }
    expectBound("learner_select", "learner_correct_solve",
                LearnerCorrectSolveArgs{0, {}, {}, {}, {}, {}, 0, {}, {}, {}, {}});
    expectBound("learner_select", "learner_select_claim",
                LearnerSelectClaimArgs{0, {}, {}, RecordArgs{r, {}, 0, {}, r}});
    expectBound("learner_select", "learner_correct_solve_select",
                LearnerCorrectSolveSelectArgs{0, {}, {}, {}, {}, {}, 0, RecordArgs{r, {}, 0, {}, r}});
    expectBound("compact_cross", "compact_x_cross_fill", CrossFillArgs{});
    expectBound("compact_btg", "compact_x_reduce", CompactXReduceArgs{});
    expectBound("compact_btg", "compact_reduce", CompactReduceArgs{});
    expectBound("compact_btg", "compact_x_partial_private", CompactXPartialPrivateArgs{});
    expectBound("compact_btg", "compact_x_partial_local", CompactXPartialArgs{});
    expectBound("compact_btg", "compact_partial_local", CompactPartialArgs{});
    expectBound("compact_btg", "compact_partial_private", CompactPartialArgs{});
    expectBound("compact_update", "compact_x_update", CompactXUpdateArgs{0, 0, {}, {}, r});
    expectBound("compact_update", "compact_x_update_cross", CompactXUpdateCrossArgs{{0, 0, {}, {}, r}});
    expectBound("compact_update", "compact_x_update_track", CompactXUpdateTrackArgs{{0, 0, {}, {}, r}});
    expectBound("compact_update", "compact_update", CompactUpdateArgs{0, 0, {}, {}, r});
    {  // built only with a family (-DFAMILY), for the gradient path
      cl_int status = CL_SUCCESS;
      Kernel both(
          clCreateKernel(ctx.program("compact_update", o + " -DFAMILY=1"), "compact_x_family_select_update", &status));
      check(status, "clCreateKernel");
      CompactXFamilySelectUpdateArgs a;
      a.scale = a.param = a.inverseWeight = r;
      QCOMPARE(a.bind(both), declaredArgs(both));
    }
    expectBound("compact_update", "vector_update", VectorUpdateArgs{0, 0, {}, r});
    expectBound("compact_update", "compact_x_forward", CompactXForwardArgs{});
    expectBound("compact_update", "compact_forward", CompactForwardArgs{});
    expectBound("compact_update", "compact_x_dense", CompactXDenseArgs{});
    expectBound("compact_update", "fitted_from_residual", FittedFromResidualArgs{});
    if (gpu) {  // the GPU cached scheme's update and atomics fill in one launch, built as CrossFill builds it
      Kernel both(ctx.kernel("compact_update+compact_cross", "compact_x_update_fill", o + " -DGB_WITH_UPDATE=1"));
      QCOMPARE((CompactXUpdateFillArgs{{0, 0, {}, {}, r}}.bind(both)), declaredArgs(both));
    }
  }

  void checkedAll() {
    for (const char* name : {"learner_solve",
                             "learner_select",
                             "learner_solve_select",
                             "learner_correct_solve",
                             "learner_select_claim",
                             "learner_correct_solve_select",
                             "compact_x_cross_fill",
                             "compact_x_reduce",
                             "compact_reduce",
                             "compact_x_partial_private",
                             "compact_x_partial_local",
                             "compact_partial_local",
                             "compact_partial_private",
                             "compact_x_update",
                             "compact_x_update_cross",
                             "compact_update",
                             "learner_solve_select_tracked",
                             "compact_x_update_track",
                             "vector_update",
                             "compact_x_forward",
                             "compact_forward",
                             "compact_x_dense",
                             "fitted_from_residual"})
      QVERIFY2(checked().count(name), name);
  }

  void sortedAndColumnsKernels() {
    Context ctx(gbocltest::testDevice());
    Plan p(ctx, CompactKernel::Sorted, true);
    Kernel sorted(ctx.kernel("compact_btg", "compact_sorted_partial_local", p.plan->options()));
    QCOMPARE(CompactSortedPartialArgs{}.bind(sorted), declaredArgs(sorted));
    Plan q(ctx, CompactKernel::CompactX, true);
    Kernel columns(ctx.kernel("compact_btg", "compact_x_partial_columns", q.plan->options() + " -DLANES=32"));
    const Buffer any(ctx, 64);
    QCOMPARE((CompactXPartialArgs{0, 0, 0, {}, {}, {}, &any, {}}.bind(columns)), declaredArgs(columns));
    Kernel reduceColumns(ctx.kernel("compact_btg", "compact_x_reduce_columns", q.plan->options() + " -DLANES=32"));
    QCOMPARE(CompactXReduceArgs{}.bind(reduceColumns), declaredArgs(reduceColumns));
    // kernels/compact_packed.cl, with the shape defines PackedBtg adds.
    const std::string packed = q.plan->options() + " -DPACK_WARPS=4 -DPACK_LEARNERS=2 -DPACK_SLOTS=4";
    Kernel pack(ctx.kernel("compact_packed", "compact_pack", packed));
    QCOMPARE(CompactPackArgs{}.bind(pack), declaredArgs(pack));
    Kernel packedPartial(ctx.kernel("compact_packed", "compact_packed_partial", packed));
    QCOMPARE(CompactPackedPartialArgs{}.bind(packedPartial), declaredArgs(packedPartial));
  }

  // kernels/cross_sorted.cl, built as CrossFill builds it (the GPU plan's options and the fill's shape).
  void crossSortedKernels() {
    Context ctx(gbocltest::testDevice());
    Plan p(ctx, CompactKernel::CompactX, true);
    const std::string o = p.plan->options() + " -DSORT_ROWS=512 -DSTRIP_LANES=32 -DSTRIP_EDGES=1";
    Kernel count(ctx.kernel("cross_sorted", "cross_sort_count", o));
    QCOMPARE(CrossSortCountArgs{}.bind(count), declaredArgs(count));
    Kernel scan(ctx.kernel("cross_sorted", "cross_sort_scan", o));
    QCOMPARE(CrossSortScanArgs{}.bind(scan), declaredArgs(scan));
    Kernel gather(ctx.kernel("cross_sorted", "cross_sort_gather", o));
    QCOMPARE(CrossSortGatherArgs{}.bind(gather), declaredArgs(gather));
    Kernel fill(ctx.kernel("cross_sorted", "cross_sorted_fill", o));
    QCOMPARE(CrossSortedFillArgs{}.bind(fill), declaredArgs(fill));
    Kernel updateCount(ctx.kernel("compact_update+cross_sorted", "compact_x_update_count", o + " -DGB_WITH_UPDATE=1"));
    const RealArg r{1.0, false};
    QCOMPARE((CompactXUpdateCountArgs{{0, 0, {}, {}, r}}.bind(updateCount)), declaredArgs(updateCount));
  }

  // kernels/fold_path.cl, built as FoldPath builds it (a family, fold counts), in the CPU and the GPU variant.
  void foldKernels_data() { compactAndIterationKernels_data(); }
  void foldKernels() {
    QFETCH(bool, gpu);
    Context ctx(gbocltest::testDevice());
    Plan p(ctx, CompactKernel::Sorted, gpu);
    const std::string o =
        p.plan->options() +
        " -DFAMILY=1 -DFOLDS=5 -DFOLD_PASS=4 -DFOLD_STRIDE=8 -DFOLD_WARPS=2 -DFOLD_GROUP=" + (gpu ? "32" : "1") +
        " -DFOLD_CHUNK=1024 -DFOLD_LANES=32";
    const RealArg r{1.0, false};
    Kernel partial(ctx.kernel("fold_path", "fold_btg_partial", o));
    QCOMPARE(FoldBtgPartialArgs{}.bind(partial), declaredArgs(partial));
    Kernel reduce(ctx.kernel("fold_path", "fold_btg_reduce", o));
    QCOMPARE(FoldBtgReduceArgs{}.bind(reduce), declaredArgs(reduce));
    Kernel update(ctx.kernel("fold_path", "fold_select_update", o));
    FoldSelectUpdateArgs a;
    a.nu = a.param = r;
    QCOMPARE(a.bind(update), declaredArgs(update));
    Kernel finish(ctx.kernel("fold_path", "fold_finish_risk", o));
    QCOMPARE(FoldFinishRiskArgs{}.bind(finish), declaredArgs(finish));
  }

  void denseKernels() {
    Context ctx(gbocltest::testDevice());
    DenseDeviceLimits limits;
    auto build = [&](const DenseLaunch& l, bool reduce) {
      return Kernel(ctx.kernel(l.file, reduce ? l.reduceKernel : l.kernel, l.options));
    };
    for (DenseKernel kind : {DenseKernel::Naive, DenseKernel::V1, DenseKernel::V2}) {
      const DenseLaunch l = denseLaunch(kind, false, 64, 1024, 64, false, limits);
      Kernel k = build(l, false);
      QCOMPARE((PaperGemvArgs{0, 0, 0, 0, {}, 0, {}, {}, {}, l.localBytes}.bind(k)), declaredArgs(k));
      if (!l.reduceKernel.empty()) {
        Kernel reduce = build(l, true);
        QCOMPARE(GemvReduceArgs{}.bind(reduce), declaredArgs(reduce));
      }
    }
    for (bool gpu : {false, true}) {
      limits.gpu = gpu;
      const DenseLaunch t = denseLaunch(DenseKernel::SplitK, false, 64, 100000, 64, false, limits);
      Kernel partial = build(t, false);
      QCOMPARE(SplitKPartialArgs{}.bind(partial), declaredArgs(partial));
      if (!t.reduceKernel.empty()) {
        Kernel reduce = build(t, true);
        QCOMPARE(GemvReduceArgs{}.bind(reduce), declaredArgs(reduce));
      }
      const DenseLaunch f = denseLaunch(DenseKernel::SplitK, true, 1000, 16, 64, false, limits);
      Kernel forward = build(f, false);
      const cl_ulong perItem = f.kernel == "gemv_rows_forward_cpu" ? 1 : 0;
      QCOMPARE((RowsForwardArgs{0, 0, 0, {}, {}, {}, {}, perItem}.bind(forward)), declaredArgs(forward));
    }
  }

  void familyAndLinearFactorKernels() {
    Context ctx(gbocltest::testDevice());
    Kernel gradient(ctx.kernel("family", "family_gradient", "-DREAL=float -DFAMILY=1"));
    QCOMPARE(FamilyGradientArgs{}.bind(gradient, false), declaredArgs(gradient));
    Kernel risk(ctx.kernel("family", "family_risk", "-DREAL=float -DFAMILY=1"));
    QCOMPARE(FamilyRiskArgs{}.bind(risk, false), declaredArgs(risk));
    Kernel both(ctx.kernel("family", "family_gradient_risk", "-DREAL=float -DFAMILY=1"));
    QCOMPARE(FamilyGradientRiskArgs{}.bind(both, false), declaredArgs(both));
    for (const char* name : {"level_sums", "linear_sums", "level_update", "linear_update"}) {
      Kernel k(ctx.kernel("ols", name, "-DREAL=float"));
      const std::string n = name;
      const cl_uint bound = n == "level_sums"     ? LevelSumsArgs{}.bind(k)
                            : n == "linear_sums"  ? LinearSumsArgs{}.bind(k)
                            : n == "level_update" ? LevelUpdateArgs{}.bind(k)
                                                  : LinearUpdateArgs{}.bind(k, false);
      QCOMPARE(bound, declaredArgs(k));
    }
  }
};

QTEST_GUILESS_MAIN(TestKernelArgs)
#include "test_kernel_args.moc"
