#include "MissingFinalizeCheck.h"
#include "analysis/DataFlow.h"
#include "analysis/Ownership.h"
#include "analysis/SourceUtils.h"

#include "clang/AST/ExprCXX.h"
#include "clang/AST/StmtCXX.h"

using namespace clang::ast_matchers;

namespace clang::tidy::mlperf {

void MissingFinalizeCheck::registerMatchers(MatchFinder *Finder) {
  using namespace matchers;
  // Handle-style resources acquired every step or request: an API call, or
  // a function of the project that returns a handle it acquired (decided in check()).
  Finder->addMatcher(callExpr(unless(isExpansionInSystemHeader())).bind("acquire"), this);
  // Device tensors (types with the acquire role) stored into a container that outlives the iteration.
  Finder->addMatcher(
      cxxMemberCallExpr(
          unless(isExpansionInSystemHeader()),
          callee(cxxMethodDecl(hasAnyName("push_back", "emplace_back", "insert", "push_front", "emplace"))),
          on(ignoringImpCasts(declRefExpr(to(varDecl().bind("container"))))), runsEveryStep(this))
          .bind("store"),
      this);
}

/// Whether an assignment to \p LHS stores into memory the function does not
/// own: a field (`obj->field = h`, `this->h_ = h`, `img.data = h`) or what a
/// parameter or a global points to (`*out = h`, `outs[i] = h`).
static bool storesOutside(const Expr *LHS) {
  LHS = LHS->IgnoreParenImpCasts();
  if (isa<MemberExpr>(LHS))
    return true;
  const Expr *Base = nullptr;
  if (const auto *U = dyn_cast<UnaryOperator>(LHS); U && U->getOpcode() == UO_Deref)
    Base = U->getSubExpr();
  else if (const auto *AS = dyn_cast<ArraySubscriptExpr>(LHS))
    Base = AS->getBase();
  const VarDecl *VD = Base ? namedVar(Base) : nullptr;
  return VD && (isa<ParmVarDecl>(VD) || !VD->hasLocalStorage());
}

/// Whether the handle leaves \p Region's function: returned, stored into a
/// member or through an out-parameter (storesOutside) or pushed into a
/// container, itself, through a local variable it was copied into
/// (`temp = p; ... a->out = temp;`) or, for an element, with its array.
static bool escapes(const Stmt *Region, const HandleRef &Handle) {
  llvm::SmallVector<HandleRef, 4> Names{Handle};
  // The elements of a local array or vector leave with the whole container (`return bufs;`).
  auto Named = [&](const Expr *E) {
    return llvm::is_contained(Names, handleRefOf(E)) ||
           (Handle.element() && E && namedVar(stripWrappers(E)) == Handle.D);
  };
  // A struct built around it (`Matrix out = {a, rows, cols};`, a compound
  // literal, a constructor's argument): where the struct goes, it goes.
  std::function<bool(const Expr *)> Holds = [&](const Expr *E) {
    E = E ? stripWrappers(E) : nullptr;
    if (const auto *CL = dyn_cast_or_null<CompoundLiteralExpr>(E))
      E = stripWrappers(CL->getInitializer());
    llvm::SmallVector<const Expr *, 4> Parts;
    if (const auto *ILE = dyn_cast_or_null<InitListExpr>(E))
      Parts.append(ILE->inits().begin(), ILE->inits().end());
    else if (const auto *CE = dyn_cast_or_null<CXXConstructExpr>(E);
             CE && !CE->getConstructor()->isCopyOrMoveConstructor())
      Parts.append(CE->arg_begin(), CE->arg_end());
    return llvm::any_of(Parts, [&](const Expr *P) { return Named(P) || Holds(P); });
  };
  auto AddCopy = [&](const VarDecl *To, bool Holder = false) {
    HandleRef Copy;
    Copy.D = To;
    if (To && To->isLocalVarDecl() && To->hasLocalStorage() &&
        (To->getType()->isPointerType() || (Holder && To->getType()->isRecordType())) &&
        !llvm::is_contained(Names, Copy))
      Names.push_back(Copy);
  };
  std::function<void(const Stmt *)> Copies = [&](const Stmt *S) {
    if (!S || isa<CXXCatchStmt>(S))
      return;
    if (const auto *DS = dyn_cast<DeclStmt>(S))
      for (const Decl *D : DS->decls())
        if (const auto *VD = dyn_cast<VarDecl>(D);
            VD && VD->getInit() && (Named(VD->getInit()) || Holds(VD->getInit())))
          AddCopy(VD, /*Holder=*/true);
    if (const auto *BO = dyn_cast<BinaryOperator>(S); BO && BO->getOpcode() == BO_Assign && Named(BO->getRHS()))
      AddCopy(namedVar(BO->getLHS()));
    for (const Stmt *C : S->children())
      Copies(C);
  };
  if (!Handle.element() && !Handle.Field)
    Copies(Region);
  bool Escapes = false;
  std::function<void(const Stmt *)> Walk = [&](const Stmt *S) {
    if (!S || Escapes || isa<CXXCatchStmt>(S)) // a handler runs only when something failed, not every iteration
      return;
    if (const auto *MC = dyn_cast<CXXMemberCallExpr>(S);
        MC && MC->getMethodDecl() && MC->getMethodDecl()->getIdentifier() &&
        MC->getMethodDecl()->getName().contains("push") && MC->getNumArgs() >= 1 && Named(MC->getArg(0)))
      Escapes = true;
    if (const auto *RS = dyn_cast<ReturnStmt>(S);
        RS && RS->getRetValue() && (Named(RS->getRetValue()) || Holds(RS->getRetValue())))
      Escapes = true;
    if (const auto *BO = dyn_cast<BinaryOperator>(S);
        BO && BO->isAssignmentOp() && storesOutside(BO->getLHS()) && Named(BO->getRHS()))
      Escapes = true;
    for (const Stmt *C : S->children())
      Walk(C);
  };
  Walk(Region);
  return Escapes;
}

/// A variable whose destructor releases what it holds: a smart pointer or
/// another RAII wrapper owns the handle.
static bool heldByRaii(const HandleRef &Handle) {
  const auto *VD = dyn_cast_or_null<VarDecl>(Handle.D);
  if (!VD || Handle.element())
    return false;
  const CXXRecordDecl *RD = VD->getType()->getAsCXXRecordDecl();
  return RD && RD->hasDefinition() && !RD->hasTrivialDestructor();
}

/// What a handle leaked on every step costs: its allocation, each time,
/// and the memory it holds, which grows with the steps.
static CostFacts leakFacts(const CallExpr *Call, const Acquisition &Acq, const HandleRef &Handle,
                           const ModelAnalysis &A) {
  const ProfileEntry &E = *Acq.Entry;
  CostFacts F;
  bool Allocates = E.K == Kind::Allocation || E.K == Kind::DeviceTensor;
  F.Allocations = Allocates;
  const ValueDecl *Named = Handle.Field ? Handle.Field : Handle.D;
  std::string Name = "'" + Named->getName().str() + "'";
  // The size its call asks for, else what the handle is.
  F.Retained = Retention{
      Acq.Via.empty() && E.SizeArg ? allocationBytes(Call, E, A.context()) : Quantity::unknown(Named->getName().str()),
      (Allocates ? "the allocation " : "what the handle ") + Name + (Allocates ? "" : " holds"), E.HostMemory};
  return F;
}

/// A function that acquires into a field of an object that outlives the
/// call and does not release what the previous call left there: a method
/// called every step or request (overwrittenMember), a function given the
/// object (overwrittenField), an iteration of a loop (overwrittenInLoop;
/// \p Iteration: a loop that runs the model deeper down), or any function
/// when nothing ever releases that field (unreleasedField, \p Never).
void MissingFinalizeCheck::reportOverwrite(const CallExpr *Call, const Acquisition &Acq, const HandleRef &Handle,
                                           const ValueDecl *Kept, const HotContext *Hot, bool Never,
                                           const MatchFinder::MatchResult &Result, bool Iteration) {
  ModelAnalysis &A = analysis(*Result.Context);
  const SourceManager &SM = *Result.SourceManager;
  {
    auto D = diag(reportLoc(Call->getExprLoc(), SM),
                  "%0 acquires a handle into %1 on every %select{step|request|call of %5|iteration of a loop that runs "
                  "the model}2, and the next %select{call|call|call|iteration}2 "
                  "overwrites it without releasing the one before%select{|; nothing in this file releases %1, not "
                  "even where the object is freed}4; call %3 on %1 before acquiring again%select{|, and when the "
                  "object is freed}4, or acquire it once %select{when the object is built|before the first call}6 "
                  "and reuse it");
    addCallee(D, Call);
    const unsigned When = Iteration ? 3u : Hot ? unsigned(Hot->Request) : 2u;
    D << Kept << When << Acq.Entry->Pair << Never << A.owner(Call) << isa<VarDecl>(Kept);
  }
  if (Hot)
    explainHot(*Hot, SM);
  CostFacts Facts = leakFacts(Call, Acq, Handle, A);
  if (!Hot || Iteration)
    Facts.Retained.reset(); // one handle per call or iteration: how often that is per step is not known here
  noteCost(reportLoc(Call->getExprLoc(), SM), Facts, Iteration ? nullptr : Hot, Call, A);
}

void MissingFinalizeCheck::checkAcquire(const CallExpr *Call, const MatchFinder::MatchResult &Result) {
  ModelAnalysis &A = analysis(*Result.Context);
  std::optional<Acquisition> Acq = acquisitionAt(Call, A);
  if (!Acq || !Acq->Entry->Owner || Acq->Entry->Raii)
    return;
  // The handle: an out-argument (`cudaMalloc(&p, n)`) or the returned value.
  bool Returned = false;
  HandleRef Handle = acquiredHandleRef(Call, *Acq, A, &Returned);
  if (Returned)
    return; // ownership escapes to the caller
  std::optional<HotContext> Hot = A.perRequest(Call);
  if (const FieldDecl *Kept = unreleasedField(Call, Handle, A)) {
    reportOverwrite(Call, *Acq, Handle, Kept, Hot ? &*Hot : nullptr, /*Never=*/true, Result);
    return;
  }
  // On every iteration of a loop that runs the model deeper down (once per
  // input file, per conversation turn, per epoch): a leak per iteration still.
  // Also in a function that runs once per request, inside its own loop that
  // runs the model: the iteration is the finer unit.
  bool Iteration = false;
  std::optional<HotContext> Outer =
      !Hot || (Hot->Request && !Hot->Loop) ? A.inModelLoop(Call) : std::optional<HotContext>();
  if (Outer && !Outer->Loop)
    Outer.reset();
  if (!Hot && !Outer)
    return;
  if (Outer) {
    Outer->Request = true; // the loop runs the model, not one step
    if (const FieldDecl *Kept = overwrittenInLoop(Call, Handle, Outer->Loop, A)) {
      reportOverwrite(Call, *Acq, Handle, Kept, &*Outer, /*Never=*/false, Result, /*Iteration=*/true);
      return;
    }
    Hot = Outer;
    Iteration = true;
  }
  // The iteration when the loop is in the acquiring function, else the
  // acquiring function (called from the loop): a release on its path counts.
  bool InLoop = Hot->Loop && isInside(Call, Hot->Loop, A);
  const FieldDecl *Kept = Iteration ? nullptr : overwrittenMember(Call, Handle, A);
  if (!Kept && !Iteration)
    Kept = InLoop ? overwrittenInLoop(Call, Handle, Hot->Loop, A) : overwrittenField(Call, Handle, A);
  if (Kept) {
    reportOverwrite(Call, *Acq, Handle, Kept, &*Hot, /*Never=*/false, Result);
    return;
  }
  if (const VarDecl *Global = Iteration ? nullptr : overwrittenGlobal(Call, Handle, A)) {
    reportOverwrite(Call, *Acq, Handle, Global, &*Hot, /*Never=*/false, Result);
    return;
  }
  if (!Handle.isLocal() || heldByRaii(Handle))
    return; // a member, a global, an untracked or RAII-owned handle: owned elsewhere
  const Stmt *Region = InLoop ? loopBody(Hot->Loop) : A.owner(Call)->getBody();
  const SourceManager &SM = *Result.SourceManager;
  // Released in the region (by a release of the pair's API, `delete`, or a
  // function that releases its parameter), or escaping.
  const Expr *Release = findReleaseOf(Region, Handle, A);
  if (escapes(Region, Handle))
    return;
  bool EarlyExit = Release && exitsBetween(Region, Call->getEndLoc(), Release->getBeginLoc(), SM, Call,
                                           isHandle(Handle), allocates(A));
  if (Release && (!EarlyExit || Iteration))
    return; // an iteration's early exit: how often it is taken, nothing here says
  // Released on the normal path, leaked only where an early exit skips the
  // release: alloc-in-loop reports the churn of an allocation, with that
  // exit as a note.
  if (EarlyExit && Acq->Entry->R == Role::Acquire && Acq->Entry->K == Kind::Allocation)
    if (std::optional<Churn> C = churnAt(Call, *Acq, A); C && C->Skip)
      return;
  {
    auto D = diag(reportLoc(Call->getExprLoc(), SM),
                  "%0 acquires %1 on every %select{step|request|iteration of a loop that runs the model}5 and "
                  "%select{never releases it|does not release it on every path}2 before the %select{next "
                  "iteration|function returns}3; call %4 on every path, or acquire it once outside the loop");
    addCallee(D, Call);
    D << Handle.D << EarlyExit << !InLoop << Acq->Entry->Pair << (Iteration ? 2u : unsigned(Hot->Request));
  }
  if (!Acq->Via.empty())
    diag(reportLoc(Call->getExprLoc(), SM), "%0 returns a handle it acquires with %1", DiagnosticIDs::Note)
        << Call->getDirectCallee() << acquireEntryName(*Acq->Entry);
  explainHot(*Hot, SM);
  CostFacts Facts = leakFacts(Call, *Acq, Handle, A);
  if (Iteration)
    Facts.Retained.reset(); // one handle per iteration: how often that is per step is not known here
  noteCost(reportLoc(Call->getExprLoc(), SM), Facts, Iteration ? nullptr : &*Hot, Call, A);
}

void MissingFinalizeCheck::checkStore(const CXXMemberCallExpr *Store, const VarDecl *Container,
                                      const MatchFinder::MatchResult &Result) {
  ModelAnalysis &A = analysis(*Result.Context);
  if (Store->getNumArgs() == 0)
    return;
  const ProfileEntry *Buffer = nullptr;
  for (const ProfileEntry *E : A.profiles().entries(Role::Acquire))
    for (const std::string &T : E->Types)
      if (!Buffer && typeMentions(Store->getArg(0)->getType(), T) && typeMentions(Container->getType(), T))
        Buffer = E;
  if (!Buffer)
    return;
  std::optional<HotContext> Hot = A.perStep(Store);
  if (!Hot || !Hot->Loop)
    return;
  const SourceManager &SM = *Result.SourceManager;
  SourceRange LoopRange = Hot->Loop->getSourceRange();
  if (!SM.isBeforeInTranslationUnit(Container->getLocation(), LoopRange.getBegin()))
    return; // declared in the iteration
  // Cleared or finalized somewhere in the function: the program manages it.
  bool Managed = false;
  std::function<void(const Stmt *)> Walk = [&](const Stmt *S) {
    if (!S || Managed || isa<CXXCatchStmt>(S))
      return;
    if (const auto *MC = dyn_cast<CXXMemberCallExpr>(S)) {
      const CXXMethodDecl *MD = MC->getMethodDecl();
      if (MD && MD->getIdentifier() && namedVar(MC->getImplicitObjectArgument()) == Container &&
          llvm::is_contained({"clear", "pop_back", "pop_front", "erase", "resize"}, MD->getName()))
        Managed = true;
    }
    if (const auto *RF = dyn_cast<CXXForRangeStmt>(S); RF && namedVar(RF->getRangeInit()) == Container) {
      std::function<bool(const Stmt *)> HasFinalize = [&](const Stmt *B) {
        if (const auto *E = dyn_cast_or_null<Expr>(B); E && isa<CallExpr>(E))
          if (auto R = A.role(E); R && R->R == Role::Finalize)
            return true;
        for (const Stmt *C : B->children())
          if (C && HasFinalize(C))
            return true;
        return false;
      };
      if (HasFinalize(RF->getBody()))
        Managed = true;
    }
    for (const Stmt *C : S->children())
      Walk(C);
  };
  Walk(A.owner(Store)->getBody());
  if (Managed)
    return;
  diag(reportLoc(Store->getExprLoc(), SM),
       "device tensors produced every step are kept in %0, which outlives the iteration; device memory grows "
       "every step until it runs out: keep only what is needed and call %1() on the rest")
      << Container << lastComponent(Buffer->Pair);
  explainHot(*Hot, SM);
  CostFacts F;
  std::string Kept = sourceText(Store->getArg(0)->getSourceRange(), *Result.Context);
  F.Retained = Retention{Quantity::unknown(Kept), "a device tensor in '" + Container->getName().str() + "'"};
  noteCost(reportLoc(Store->getExprLoc(), SM), F, &*Hot, Store, A);
}

void MissingFinalizeCheck::check(const MatchFinder::MatchResult &Result) {
  if (const auto *Store = Result.Nodes.getNodeAs<CXXMemberCallExpr>("store"))
    return checkStore(Store, Result.Nodes.getNodeAs<VarDecl>("container"), Result);
  if (const auto *Call = Result.Nodes.getNodeAs<CallExpr>("acquire"))
    checkAcquire(Call, Result);
}

} // namespace clang::tidy::mlperf
