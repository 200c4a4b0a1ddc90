/* The compiled core of the GRAPH-T double-dummy searcher (kifu/puzzles/graph_t_dd.py).
 *
 * The pure-Python searcher in graph_t_dd.py is the reference: this file searches the same
 * game tree with the same bounds, the same table key and the same move ordering, and
 * kifu/puzzles/graph_t_dd.py drives it through the same methods (visit, push, pop,
 * evaluate, bounds).  tests/test_graph_t_dd_core.py checks that both give the same values,
 * the same value of every first play and the same principal lines.
 *
 * The card tables come from Python (kifu.games.graph_t.cards) through set_tables(), so the
 * game's numbers are written once.
 *
 * State.  The hands are one 64-bit word: at the root every card a seat holds gets a bit
 * of its own, the copies of one code side by side ("group"); playing a card of a code
 * clears the highest bit of its group, so a word names a set of counts per seat and code.
 * A GRAPH-T position has at most 52 cards, so the word always suffices.
 *
 * Memory.  The transposition table has a fixed number of entries at most (from the
 * memory budget), grows by doubling up to it, and past it replaces, in a bucket of four,
 * the entry with the fewest tricks left (the cheapest to find again).  The per-hands
 * memo (Info) is direct-mapped: a new hands word takes the slot.  Neither grows past its
 * size, so the core's memory is bounded by construction.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

typedef int64_t val_t;
#define INF (((val_t)1) << 60)
#define SHIFT_PLACE 40
#define SHIFT_T1 20
#define GREY 5
#define NCODES 21
#define NPIDS 42
#define MAXH 25 /* plays of one colour a hand can hold, +0 */

static val_t pack(int place, int shared, int t1, int t2) {
    return ((val_t)((4 - place) * 5 + (4 - shared)) << SHIFT_PLACE) | ((val_t)t1 << SHIFT_T1) |
           (val_t)t2;
}

/* --- the game's tables (set_tables) ---------------------------------------------------- */
static int T_ready = 0;
static int PCOL[NPIDS], PHT[NPIDS], PISG[NPIDS], POK[NPIDS];
static int CCOL[NCODES];
static uint32_t NONTOP, GBITM, CMASK[5];
static int ORDER[NPIDS], NORDER; /* the real plays, tallest first (ties: lower pid first) */
static int RANK[NPIDS];          /* a play's index in ORDER */

#define PAIR(a, b) (((a) << 16) | (b))
#define P1(p) ((p) >> 16)
#define P2(p) ((p) & 0xFFFF)

/* --- state ------------------------------------------------------------------------------ */
typedef struct {
    uint64_t cards;
    uint32_t pres[4];
    int nc[4]; /* cards a seat holds */
    int H[24];
    int trick[4];
    int k, leader, greyed, tgrey;
    int wv, wk; /* the trick so far: the winning play's strength and index */
} St;

typedef struct {
    uint64_t cards;   /* the hands */
    uint16_t norm[4][8];
    uint8_t leader, gk; /* gk: who may lead grey, + 1 */
} Key;

typedef struct {
    Key key;
    val_t lo, hi;
    int8_t best;
    uint8_t depth; /* tricks left */
} Entry;

#define WAYS 4

typedef struct {
    uint64_t cards;
    int used;
    int ncards[4];
    int32_t mass[7];      /* per colour the heights of its plays left; [6]: every card on
                             its taller side */
    int16_t len[4][6];    /* how many plays of each colour a seat holds */
    int16_t top[4][6];    /* the tallest of them (0: none) */
    int16_t low[4][6];    /* the shortest */
    int16_t plen[4][6];   /* 0: the stack cannot grow; else the length of its gains */
    int16_t poff[4][6];   /* where they are in pool */
    int16_t pool[4 * (2 * MAXH + 6)]; /* the gains, summed: the most a stack gains in
                                         0, 1, 2 ... tricks (build_info) */
} Info;

typedef struct {
    val_t lo, hi;
    uint16_t norm[4][8];
    int cur[4], up[4];
    int mu;
} Base;

typedef struct {
    PyObject_HEAD
    int n, player, trump, anyone;
    uint64_t gm[4][NCODES];
    int gb[4][NCODES];
    unsigned gw[4][NCODES]; /* the group's bits, shifted down: (1 << copies) - 1 */
    uint64_t seatmask[4];
    int seat_at[4][4];
    int ppos[4];
    int gkt[16];
    int8_t killer[4][32]; /* per seat and cards held: the lead that last cut a search off */
    St st;
    St *undo;
    int nundo, undo_cap;
    long long nodes, max_nodes;
    long long check_mask;
    PyObject *check; /* called every check_mask + 1 nodes; an exception stops the search */
    PyObject *nodes_error; /* raised past max_nodes */
    jmp_buf jb;
    int depth; /* nesting of visit calls from Python */
    struct Bucket_ *tt;
    size_t tt_buckets, tt_count, tt_max_buckets;
    Info *info;
    size_t info_mask;
    struct LastT_ *lasts;
    size_t lasts_mask;
} Core;



static const uint8_t PC16[16] = {0, 1, 1, 2, 1, 2, 2, 3, 1, 2, 2, 3, 2, 3, 3, 4};

/* how many cards of code c seat s holds in ``cards`` (a group has 4 bits at most) */
static inline int held(const Core *S, uint64_t cards, int s, int c) {
    return PC16[(cards >> S->gb[s][c]) & S->gw[s][c]];
}

static inline int ncards(const Core *S, int s) { return S->st.nc[s]; }

static inline void take(Core *S, int s, int c) {
    int m = held(S, S->st.cards, s, c);
    S->st.cards &= ~(((uint64_t)1) << (S->gb[s][c] + m - 1));
    S->st.nc[s]--;
    if (m == 1) S->st.pres[s] &= ~(1u << c);
}

static inline uint64_t all_key(uint32_t p) {
    return (uint64_t)p | ((uint64_t)(p & NONTOP) << 21);
}

/* the legal plays (a play-set key: bit c colour side of code c, bit 21 + c grey side) */
static uint64_t legal_key(const Core *S, int mover, int k, int led, int g0, int tg) {
    uint32_t p = S->st.pres[mover];
    if (k == 0) {
        int op = S->anyone ? g0 != 0 : (g0 & ~(1 << mover)) != 0;
        if (op) return all_key(p);
        uint32_t a = p & 0xFFFFF;
        return a ? a : p;
    }
    if (led == GREY) {
        uint64_t g = (uint64_t)(p & GBITM) | ((uint64_t)(p & NONTOP) << 21);
        return g ? g : p;
    }
    uint32_t a = p & CMASK[led];
    if (a) return tg ? ((uint64_t)a | (p & GBITM) | ((uint64_t)(p & NONTOP) << 21)) : a;
    return all_key(p);
}

/* the plays of a play-set key in ORDER (tallest first) */
static int pids_of(uint64_t key, int *out) {
    int r[NPIDS], m = 0;
    while (key) {
        int b = __builtin_ctzll(key);
        key &= key - 1;
        int x = RANK[b < 21 ? 2 * b : 2 * (b - 21) + 1];
        int j = m++;
        while (j > 0 && r[j - 1] > x) {
            r[j] = r[j - 1];
            j--;
        }
        r[j] = x;
    }
    for (int i = 0; i < m; i++) out[i] = ORDER[r[i]];
    return m;
}

/* how a play competes in a trick led with colour ``led`` (rules.py, trick_winner): plays
   of the led colour and grey plays compete, the greater wins and a later play wins a tie;
   with ``trump`` every grey play beats every play of the led colour. -1: it does not. */
static inline int strength(int pid, int led, int trump) {
    int col = PCOL[pid];
    if (col == GREY) return PHT[pid] + (trump ? 1000 : 0);
    return col == led ? PHT[pid] : -1;
}

/* the trick after its ``k``-th play ``pid`` (0-based), the winner so far (``wv``, ``wk``)
   updated in place */
static inline void compete(int pid, int k, int led, int trump, int *wv, int *wk) {
    int v = strength(pid, led, trump);
    if (k == 0 || v >= *wv) {
        *wv = v;
        *wk = k;
    }
}

/* what the winner of a full trick collects: its play's colour and the heights of the
   plays of that colour */
static inline int collected(const int *t, int len, int wk, int *wc) {
    int c = PCOL[t[wk]], a = 0;
    for (int j = 0; j < len; j++)
        if (PCOL[t[j]] == c) a += PHT[t[j]];
    *wc = c;
    return a;
}

/* a running top two (t1 >= t2) after one more height ``x`` */
static inline void add2(int *t1, int *t2, int x) {
    if (x > *t1) {
        *t2 = *t1;
        *t1 = x;
    } else if (x > *t2)
        *t2 = x;
}

/* a seat's pair: its tallest stack and its second */
static inline int top2(const int *hs) {
    int t1 = 0, t2 = 0;
    for (int c = 0; c < 6; c++) add2(&t1, &t2, hs[c]);
    return PAIR(t1, t2);
}

static val_t value_of_pairs(const Core *S, const int *pairs) {
    int mine = pairs[S->player], place = 1, shared = 1;
    for (int s = 0; s < S->n; s++) {
        if (s == S->player) continue;
        if (pairs[s] > mine)
            place++;
        else if (pairs[s] == mine)
            shared++;
    }
    return pack(place, shared, P1(mine), P2(mine));
}

static val_t evaluate(const Core *S) {
    int pairs[4] = {0, 0, 0, 0};
    for (int s = 0; s < S->n; s++) pairs[s] = top2(S->st.H + 6 * s);
    return value_of_pairs(S, pairs);
}

static inline int gk_of(const Core *S, int g) { return S->gkt[g]; }

/* --- budget ----------------------------------------------------------------------------- */
static void out_of_budget(Core *S) { longjmp(S->jb, 1); }

static void tick(Core *S) {
    if (S->nodes > S->max_nodes) {
        PyErr_SetObject((PyObject *)Py_TYPE(S->nodes_error), S->nodes_error);
        out_of_budget(S);
    }
    if (S->check && !(S->nodes & S->check_mask)) {
        PyObject *r = PyObject_CallNoArgs(S->check);
        if (r == NULL) out_of_budget(S);
        Py_DECREF(r);
    }
}

/* --- the per-hands memo (Info) -------------------------------------------------------- */
static void sort_desc(int16_t *a, int m) {
    for (int i = 1; i < m; i++) {
        int16_t x = a[i];
        int j = i - 1;
        while (j >= 0 && a[j] < x) {
            a[j + 1] = a[j];
            j--;
        }
        a[j + 1] = x;
    }
}

static void sort_desc_int(int *a, int m) {
    for (int i = 1; i < m; i++) {
        int x = a[i], j = i - 1;
        while (j >= 0 && a[j] < x) {
            a[j + 1] = a[j];
            j--;
        }
        a[j + 1] = x;
    }
}

static inline uint64_t mix64(uint64_t x) {
    x ^= x >> 33;
    x *= 0xff51afd7ed558ccdULL;
    x ^= x >> 33;
    x *= 0xc4ceb9fe1a85ec53ULL;
    x ^= x >> 33;
    return x;
}

static void build_info(const Core *S, uint64_t cards, Info *I) {
    int n = S->n;
    int16_t lst[4][6][MAXH];
    I->cards = cards;
    I->used = 1;
    memset(I->len, 0, sizeof I->len);
    memset(I->mass, 0, sizeof I->mass);
    for (int s = 0; s < n; s++) {
        int most = 0;
        I->ncards[s] = 0;
        for (int c = 0; c < NCODES; c++) {
            int k = held(S, cards, s, c);
            I->ncards[s] += k;
            for (int j = 0; j < k; j++) {
                if (c == 20) {
                    lst[s][GREY][I->len[s][GREY]++] = 60;
                    most += 60;
                    continue;
                }
                int col = CCOL[c];
                int h = PHT[2 * c];
                lst[s][col][I->len[s][col]++] = (int16_t)h;
                int g = 0;
                if (NONTOP >> c & 1) {
                    g = PHT[2 * c + 1];
                    lst[s][GREY][I->len[s][GREY]++] = (int16_t)g;
                }
                most += h > g ? h : g;
            }
        }
        for (int c = 0; c < 6; c++) {
            int m = I->len[s][c];
            sort_desc(lst[s][c], m);
            for (int j = 0; j < m; j++) I->mass[c] += lst[s][c][j];
            I->top[s][c] = m ? lst[s][c][0] : 0;
            I->low[s][c] = m ? lst[s][c][m - 1] : 0;
        }
        I->mass[6] += most;
    }
    /* the gains: for each seat's plays of a colour, tallest first, each trick collects
       from each other seat its tallest play left no taller than the owner's */
    int off = 0;
    for (int s = 0; s < n; s++) {
        for (int c = 0; c < 6; c++) {
            int m = I->len[s][c];
            I->poff[s][c] = (int16_t)off;
            if (!m) {
                I->plen[s][c] = 0;
                continue;
            }
            int gains[MAXH];
            for (int i = 0; i < m; i++) gains[i] = lst[s][c][i];
            for (int t = 0; t < n; t++) {
                if (t == s) continue;
                const int16_t *ys = lst[t][c];
                int ny = I->len[t][c], j = 0;
                for (int i = 0; i < m; i++) {
                    int x = lst[s][c][i];
                    while (j < ny && ys[j] > x) j++;
                    if (j == ny) break;
                    gains[i] += ys[j];
                    j++;
                }
            }
            sort_desc_int(gains, m);
            int16_t *p = I->pool + off;
            int acc = 0;
            p[0] = 0;
            for (int i = 0; i < m; i++) {
                acc += gains[i];
                p[i + 1] = (int16_t)acc;
            }
            I->plen[s][c] = (int16_t)(m + 1);
            off += m + 1;
        }
    }
}

static Info *info_get(Core *S) {
    uint64_t cards = S->st.cards;
    Info *I = &S->info[mix64(cards) & S->info_mask];
    if (!I->used || I->cards != cards) build_info(S, cards, I);
    return I;
}

/* pref[c] at ``t`` tricks (the last value past its end); 0 for a stack that cannot grow */
static inline int pref_at(const Info *I, int s, int c, int t) {
    int m = I->plen[s][c];
    if (!m) return 0;
    return I->pool[I->poff[s][c] + (t < m ? t : m - 1)];
}

/* the fewest tricks whose gains reach ``d`` (bisect_left) */
static inline int bisect(const Info *I, int s, int c, int d) {
    int m = I->plen[s][c];
    if (!m) return d <= 0 ? 0 : 1;
    int i = 0;
    const int16_t *p = I->pool + I->poff[s][c];
    while (i < m && p[i] < d) i++;
    return i;
}

/* --- bounds ---------------------------------------------------------------------------- */
static int pair_max(const Core *S, const Info *I, const int *hs, int tricks) {
    int p = S->player, most[6], u1 = 0, u2 = 0;
    for (int c = 0; c < 6; c++) {
        most[c] = hs[c] + pref_at(I, p, c, tricks);
        if (most[c] > u1) u1 = most[c];
    }
    for (int a = 0; a < 6; a++) {
        if (most[a] != u1) continue;
        int left = tricks - bisect(I, p, a, u1 - hs[a]);
        for (int b = 0; b < 6; b++) {
            if (b == a) continue;
            int x = hs[b] + pref_at(I, p, b, left);
            if (x > u2) u2 = x;
        }
    }
    return PAIR(u1, u2);
}

static val_t best_of(const Core *S, const Info *I, int tricks, const int *pairs, int *mu_out) {
    int mu = pair_max(S, I, S->st.H + 6 * S->player, tricks);
    int place = 1;
    for (int s = 0; s < S->n; s++)
        if (s != S->player && pairs[s] > mu) place++;
    *mu_out = mu;
    return pack(place, 1, P1(mu), P2(mu));
}

static void base_of(const Core *S, const Info *I, Base *B) {
    int n = S->n, player = S->player;
    const int *H = S->st.H;
    memset(B->norm, 0, sizeof B->norm);
    for (int s = 0; s < n; s++) {
        const int *hs = H + 6 * s;
        /* the top two of the stacks that cannot grow, and each one that can unless it
           can never be among the top two */
        int f1 = 0, f2 = 0;
        for (int c = 0; c < 6; c++)
            if (!I->plen[s][c]) add2(&f1, &f2, hs[c]);
        int c1 = f1, c2 = f2, u1 = f1, u2 = f2;
        uint16_t *nm = B->norm[s];
        nm[0] = (uint16_t)f1;
        nm[1] = (uint16_t)f2;
        for (int c = 0; c < 6; c++) {
            int m = I->plen[s][c];
            if (!m) continue;
            int r = I->pool[I->poff[s][c] + m - 1];
            int x = hs[c];
            if (x + r > f2) nm[2 + c] = (uint16_t)(8 * x + c + 1);
            add2(&c1, &c2, x);
            add2(&u1, &u2, x + r);
        }
        B->cur[s] = PAIR(c1, c2);
        B->up[s] = PAIR(u1, u2);
    }
    int tricks = I->ncards[player];
    B->hi = best_of(S, I, tricks, B->cur, &B->mu);
    int mc = B->cur[player], target = P1(mc);
    int above = 0, reach = 0, needs[4], nn = 0;
    for (int s = 0; s < n; s++) {
        if (s == player) continue;
        int q = B->up[s];
        if (q < mc) continue;
        reach++;
        if (B->cur[s] > mc) {
            above++;
        } else if (q > mc) {
            if (P1(B->cur[s]) >= target) {
                needs[nn++] = 1;
                continue;
            }
            int fewest = 1 << 30;
            for (int c = 0; c < 6; c++) {
                int m = I->plen[s][c];
                if (!m) continue;
                int r = I->pool[I->poff[s][c] + m - 1];
                int d = target - H[6 * s + c];
                if (d <= r) {
                    int f = bisect(I, s, c, d);
                    if (f < fewest) fewest = f;
                }
            }
            needs[nn++] = fewest;
        }
    }
    int passing = 0;
    if (nn) {
        /* sort ascending */
        for (int i = 1; i < nn; i++) {
            int x = needs[i], j = i - 1;
            while (j >= 0 && needs[j] > x) {
                needs[j + 1] = needs[j];
                j--;
            }
            needs[j + 1] = x;
        }
        int left = tricks;
        for (int i = 0; i < nn; i++) {
            left -= needs[i];
            if (left < 0) break;
            passing++;
        }
    }
    int place = 1 + above + passing;
    B->lo = pack(place, 1 + reach - (place - 1), P1(mc), P2(mc));
    for (int s = 0; s < n; s++) {
        if (s == player) continue;
        if (B->up[s] < mc) {
            memset(B->norm[s], 0, sizeof B->norm[s]);
            B->norm[s][0] = 0xFFFF;
        } else if (B->cur[s] > B->mu) {
            memset(B->norm[s], 0, sizeof B->norm[s]);
            B->norm[s][0] = 0xFFFE;
        }
    }
}

/* the sure leads of seat s: (colour, height) of each colour card no other seat can beat */
static int sure(const Core *S, const Info *I, int s, int *cols, int *hts) {
    int m = 0;
    uint64_t cards = S->st.cards;
    for (int c = 0; c < 20; c++) {
        int k = held(S, cards, s, c);
        if (!k) continue;
        int col = CCOL[c], x = PHT[2 * c], beaten = 0;
        for (int t = 0; t < S->n && !beaten; t++) {
            if (t == s) continue;
            if (I->len[t][col] && I->top[t][col] >= x) beaten = 1;
            else if (I->len[t][GREY] && (S->trump || I->top[t][GREY] >= x)) beaten = 1;
        }
        if (beaten) continue;
        for (int j = 0; j < k; j++) {
            cols[m] = col;
            hts[m] = x;
            m++;
        }
    }
    return m;
}

static int forced(const Core *S, const Info *I, int col) {
    int add = 0;
    for (int i = 1; i < S->n; i++) {
        int s = S->seat_at[S->player][i];
        if (I->len[s][col])
            add += I->low[s][col];
        else if (I->len[s][GREY])
            break;
    }
    return add;
}

typedef struct {
    int m, c, d;
} Opt;

typedef struct {
    Opt pass[8], tie[8];
    int np, nt;
} Opts;

typedef struct {
    Opts o[4];
    int k, full, best;
    int dem[7];
    const int32_t *mass;
} Fit;

static void fit(Fit *F, int i, int left, int score, int total) {
    if (score > F->best) F->best = score;
    if (i == F->k || score + 4 * (F->k - i) <= F->best) return;
    const Opts *o = &F->o[i];
    int all_mass = F->mass[6];
    /* a pass scores 4, a tie 1: the most passes first, then the most ties */
    for (int w = 0; w < 2; w++) {
        const Opt *ways = w ? o->tie : o->pass;
        int nw = w ? o->nt : o->np, gain = w ? 1 : 4;
        for (int j = 0; j < nw; j++) {
            int m = ways[j].m, c = ways[j].c, d = ways[j].d;
            if (m <= left && total + d <= all_mass) {
                int x = F->dem[c] + d;
                if (x <= F->mass[c]) {
                    F->dem[c] = x;
                    fit(F, i + 1, left - m, score + gain, total + d);
                    F->dem[c] = x - d;
                    if (F->best == F->full) return;
                }
            }
        }
    }
    fit(F, i + 1, left, score, total);
}

static int opt_less(const Opt *a, const Opt *b) {
    if (a->m != b->m) return a->m < b->m;
    if (a->c != b->c) return a->c < b->c;
    return a->d < b->d;
}

static void sort_opts(Opt *a, int m) {
    for (int i = 1; i < m; i++) {
        Opt x = a[i];
        int j = i - 1;
        while (j >= 0 && opt_less(&x, &a[j])) {
            a[j + 1] = a[j];
            j--;
        }
        a[j + 1] = x;
    }
}

/* how many of ``seats`` can together end above the player's pair ``mc``, then how many
   more equal to it (graph_t_dd.py, worst) */
static void worst(const Core *S, const Info *I, const int *seats, const int *can_pass, int ns,
                  int mc, int tricks, int *passing, int *tying) {
    Fit F;
    int target = P1(mc);
    for (int i = 0; i < ns; i++) {
        int s = seats[i];
        const int *hs = S->st.H + 6 * s;
        int pr = top2(hs);
        Opt o[8];
        int no = 0;
        if (P1(pr) >= target) {
            o[no++] = (Opt){1, 6, 0};
        } else {
            for (int c = 0; c < 6; c++) {
                int m = I->plen[s][c];
                if (!m) continue;
                int r = I->pool[I->poff[s][c] + m - 1];
                int d = target - hs[c];
                if (d > r) continue;
                int f = bisect(I, s, c, d);
                if (f <= tricks) o[no++] = (Opt){f, c, d};
            }
        }
        Opts *op = &F.o[i];
        op->nt = 0;
        if (pr == mc) {
            op->tie[op->nt++] = (Opt){0, 6, 0};
        } else {
            int more = P1(pr) < P2(mc) ? 1 : 0;
            for (int j = 0; j < no; j++)
                if (o[j].m + more <= tricks) op->tie[op->nt++] = (Opt){o[j].m + more, o[j].c, o[j].d};
        }
        sort_opts(o, no);
        sort_opts(op->tie, op->nt);
        op->np = 0;
        if (can_pass[i])
            for (int j = 0; j < no; j++) op->pass[op->np++] = o[j];
    }
    F.k = ns;
    F.full = 4 * ns;
    F.best = 0;
    memset(F.dem, 0, sizeof F.dem);
    F.mass = I->mass;
    fit(&F, 0, tricks, 0, 0);
    *passing = F.best >> 2;
    *tying = F.best & 3;
}

static void refine(const Core *S, const Info *I, const Base *B, int leader, val_t *lo_out,
                   val_t *hi_out) {
    int n = S->n, player = S->player;
    int tricks = I->ncards[player];
    val_t hi = INF;
    int cols[MAXH + 1], hts[MAXH + 1];
    if (leader != player) {
        int g = sure(S, I, leader, cols, hts);
        if (g) {
            int hs[6];
            memcpy(hs, S->st.H + 6 * leader, sizeof hs);
            for (int j = 0; j < g; j++) hs[cols[j]] += hts[j];
            int above_cur[4];
            memcpy(above_cur, B->cur, sizeof above_cur);
            above_cur[leader] = top2(hs);
            int mu;
            hi = best_of(S, I, tricks - g, above_cur, &mu);
        }
    }
    int mc = B->cur[player];
    if (leader == player) {
        int g = sure(S, I, player, cols, hts);
        if (g) {
            int hs[6];
            memcpy(hs, S->st.H + 6 * player, sizeof hs);
            for (int j = 0; j < g; j++) hs[cols[j]] += hts[j];
            hs[cols[0]] += forced(S, I, cols[0]);
            mc = top2(hs);
            tricks -= g;
        }
    }
    int above = 0, seats[4], can_pass[4], ns = 0;
    for (int s = 0; s < n; s++) {
        if (s == player) continue;
        int q = B->up[s];
        if (q >= mc) {
            if (B->cur[s] > mc)
                above++;
            else {
                seats[ns] = s;
                can_pass[ns] = q > mc;
                ns++;
            }
        }
    }
    int passing = 0, tying = 0;
    if (ns) worst(S, I, seats, can_pass, ns, mc, tricks, &passing, &tying);
    *lo_out = pack(1 + above + passing, 1 + tying, P1(mc), P2(mc));
    *hi_out = hi;
}

/* --- the transposition table ------------------------------------------------------------ */
/* A bucket holds WAYS entries and, in its first cache line, each entry's hash (0: empty),
   so that a probe reads one line and then only the entry whose hash matches. */
typedef struct Bucket_ {
    uint64_t check[WAYS];
    Entry e[WAYS];
} Bucket;

static uint64_t key_hash(const Key *k) {
    const uint64_t *w = (const uint64_t *)k->norm;
    uint64_t h = k->cards * 0x9e3779b97f4a7c15ULL;
    for (int i = 0; i < 8; i++) h = (h ^ w[i]) * 0xff51afd7ed558ccdULL + (h >> 29);
    h = mix64(h ^ ((uint64_t)k->leader << 8 | k->gk));
    return h ? h : 1; /* 0 marks an empty way */
}

static inline int key_eq(const Key *a, const Key *b) {
    return a->cards == b->cards && a->leader == b->leader && a->gk == b->gk &&
           memcmp(a->norm, b->norm, sizeof a->norm) == 0;
}

static Entry *tt_find(Core *S, const Key *k, uint64_t h) {
    Bucket *b = S->tt + (h & (S->tt_buckets - 1));
    for (int i = 0; i < WAYS; i++)
        if (b->check[i] == h && key_eq(&b->e[i].key, k)) return &b->e[i];
    return NULL;
}

/* twice the buckets, the entries rehashed (by the hash they keep) */
static int tt_grow(Core *S) {
    size_t nb = S->tt_buckets * 2;
    Bucket *t = calloc(nb, sizeof(Bucket));
    if (!t) return 0;
    Bucket *old = S->tt;
    size_t ob = S->tt_buckets;
    S->tt = t;
    S->tt_buckets = nb;
    S->tt_count = 0;
    for (size_t i = 0; i < ob; i++) {
        for (int w = 0; w < WAYS; w++) {
            uint64_t h = old[i].check[w];
            if (!h) continue;
            Bucket *b = t + (h & (nb - 1));
            for (int j = 0; j < WAYS; j++)
                if (!b->check[j]) {
                    b->check[j] = h;
                    b->e[j] = old[i].e[w];
                    S->tt_count++;
                    break;
                }
        }
    }
    free(old);
    return 1;
}

/* The replacement rule: a key already there is updated; else an empty way; else the way
   with the fewest tricks left (the cheapest to find again), the first of equals. The table
   doubles while it is three quarters full and under its most buckets. */
static void tt_put(Core *S, const Key *k, uint64_t h, val_t lo, val_t hi, int best, int depth) {
    Entry *e = tt_find(S, k, h);
    if (!e) {
        if (4 * S->tt_count >= 3 * S->tt_buckets * WAYS && S->tt_buckets < S->tt_max_buckets)
            tt_grow(S);
        Bucket *b = S->tt + (h & (S->tt_buckets - 1));
        int w = 0;
        for (int i = 0; i < WAYS; i++) {
            if (!b->check[i]) {
                w = i;
                break;
            }
            if (b->e[i].depth < b->e[w].depth) w = i;
        }
        if (!b->check[w]) S->tt_count++;
        b->check[w] = h;
        e = &b->e[w];
        e->key = *k;
    }
    e->lo = lo;
    e->hi = hi;
    e->best = (int8_t)best;
    e->depth = (uint8_t)depth;
}

/* the table's bounds after a search of ``best`` in the window (a0, b0) (fail-soft) */
static void store(Core *S, const Key *k, uint64_t h, val_t elo, val_t ehi, val_t best, val_t a0,
                  val_t b0, int best_pid, int depth) {
    if (best <= a0) {
        if (best < ehi) ehi = best;
    } else if (best >= b0) {
        if (best > elo) elo = best;
    } else
        elo = ehi = best;
    tt_put(S, k, h, elo, ehi, best_pid, depth);
}

/* --- the last trick ---------------------------------------------------------------------- */
/* The last trick (one card a hand) as a small tree, built once per hands, leader and
   whether grey is open for the leader (graph_t_dd.py, last_tree): its distinct ends
   (winner, stack, gain) and the choices, a kid being a node index (>= 0) or an end
   (-1 - its index); a choice whose kids are all one end is that end. */
typedef struct LastT_ {
    uint64_t cards;
    uint8_t leader, op, used, nends, nn;
    int8_t root;
    uint8_t ews[16], ewi[16];
    uint16_t eadd[16];
    uint8_t nmaxi[16], nk[16];
    int8_t kid[16][2];
} LastT;

typedef struct {
    const Core *S;
    LastT *T;
    int seats[4], codes[4], tr[4];
} LastB;

static int last_end(LastB *B, int wv_k) {
    const Core *S = B->S;
    LastT *T = B->T;
    int wc, add = collected(B->tr, S->n, wv_k, &wc);
    int ws = B->seats[wv_k], wi = 6 * ws + wc;
    for (int e = 0; e < T->nends; e++)
        if (T->ewi[e] == wi && T->eadd[e] == add) return -1 - e;
    int e = T->nends++;
    T->ews[e] = (uint8_t)ws;
    T->ewi[e] = (uint8_t)wi;
    T->eadd[e] = (uint16_t)add;
    return -1 - e;
}

static int last_choice(LastB *B, int maxi, const int *kids, int nk) {
    if (nk == 1 || (nk == 2 && kids[0] == kids[1] && kids[0] < 0)) return kids[0];
    LastT *T = B->T;
    int i = T->nn++;
    T->nmaxi[i] = (uint8_t)maxi;
    T->nk[i] = (uint8_t)nk;
    for (int j = 0; j < nk; j++) T->kid[i][j] = (int8_t)kids[j];
    return i;
}

/* the choices of the ``i``-th seat of the last trick on, the trick so far in ``tr`` */
static int last_rest(LastB *B, int i, int led, int tg, int wv, int wk) {
    const Core *S = B->S;
    int c = B->codes[i];
    int nt = NONTOP >> c & 1;
    int opts[2], no = 1;
    opts[0] = 2 * c;
    if (led == GREY) {
        if (nt) opts[0] = 2 * c + 1;
    } else if (c != 20 && CCOL[c] == led) {
        if (tg && nt) opts[no++] = 2 * c + 1;
    } else if (nt) {
        opts[no++] = 2 * c + 1;
    }
    int kids[2];
    for (int j = 0; j < no; j++) {
        int q = opts[j], v = wv, w = wk;
        B->tr[i] = q;
        compete(q, i, led, S->trump, &v, &w);
        kids[j] = i + 1 >= S->n || i >= 3 ? last_end(B, w)
                                           : last_rest(B, i + 1, led, tg || PISG[q], v, w);
    }
    return last_choice(B, B->seats[i] == S->player, kids, no);
}

static void last_build(const Core *S, LastT *T, int leader, int op) {
    LastB B;
    B.S = S;
    B.T = T;
    T->nends = T->nn = 0;
    for (int i = 0; i < S->n; i++) {
        int s = S->seat_at[leader][i];
        B.seats[i] = s;
        B.codes[i] = __builtin_ctz(S->st.pres[s]);
    }
    int c = B.codes[0];
    int firsts[2], nf = 0, kids[2];
    firsts[nf++] = 2 * c;
    if (op && (NONTOP >> c & 1)) firsts[nf++] = 2 * c + 1;
    for (int j = 0; j < nf; j++) {
        int f = firsts[j];
        int v = 0, w = 0;
        B.tr[0] = f;
        compete(f, 0, PCOL[f], S->trump, &v, &w);
        kids[j] = last_rest(&B, 1, PCOL[f], PISG[f], v, w);
    }
    T->root = (int8_t)last_choice(&B, leader == S->player, kids, nf);
}

/* the pair of a seat whose pair was ``pr`` after its stack of height ``x`` grows to ``y``:
   the grown stack becomes its tallest or its second */
static inline int grown(int pr, int x, int y) {
    int t1 = P1(pr), t2 = P2(pr);
    if (x == t1) return PAIR(y, t2);
    if (y > t1) return PAIR(y, t1);
    return PAIR(t1, y > t2 ? y : t2);
}

/* fail-soft alpha-beta bookkeeping after a child's value ``v``: 1 on a cut-off */
static inline int cut(int maxi, val_t v, val_t *best, val_t *alpha, val_t *beta) {
    if (maxi) {
        if (v > *best) {
            *best = v;
            if (v > *alpha) {
                *alpha = v;
                if (v >= *beta) return 1;
            }
        }
    } else if (v < *best) {
        *best = v;
        if (v < *beta) {
            *beta = v;
            if (v <= *alpha) return 1;
        }
    }
    return 0;
}

static val_t last_node(const LastT *T, int i, const val_t *vals, val_t alpha, val_t beta) {
    int maxi = T->nmaxi[i];
    val_t best = maxi ? -INF : INF;
    for (int j = 0; j < T->nk[i]; j++) {
        int kd = T->kid[i][j];
        val_t v = kd < 0 ? vals[-1 - kd] : last_node(T, kd, vals, alpha, beta);
        if (cut(maxi, v, &best, &alpha, &beta)) break;
    }
    return best;
}

/* the value (fail-soft within the window) when every hand holds one card, ``leader`` to
   lead, grey plays so far ``g``, the seats' pairs ``pairs`` and the stacks in S->st.H */
static val_t last_trick(Core *S, int leader, int g, const int *pairs, val_t alpha, val_t beta) {
    int op = S->anyone ? g != 0 : (g & ~(1 << leader)) != 0;
    uint64_t cards = S->st.cards;
    LastT *T = &S->lasts[mix64(cards ^ (uint64_t)(leader << 1 | op) << 56) & S->lasts_mask];
    if (!T->used || T->cards != cards || T->leader != leader || T->op != op) {
        last_build(S, T, leader, op);
        T->cards = cards;
        T->leader = (uint8_t)leader;
        T->op = (uint8_t)op;
        T->used = 1;
    }
    /* each end valued once, from the seats' pairs before the trick: the stack that grows
       changes its seat's pair in one step */
    val_t vals[16];
    int pp[4];
    memcpy(pp, pairs, sizeof pp);
    for (int e = 0; e < T->nends; e++) {
        int ws = T->ews[e], x = S->st.H[T->ewi[e]];
        pp[ws] = grown(pairs[ws], x, x + T->eadd[e]);
        vals[e] = value_of_pairs(S, pp);
        pp[ws] = pairs[ws];
    }
    if (T->root < 0) return vals[-1 - T->root];
    return last_node(T, T->root, vals, alpha, beta);
}

static void pairs_now(const Core *S, int *pairs) {
    for (int s = 0; s < S->n; s++) pairs[s] = top2(S->st.H + 6 * s);
}

/* --- move ordering ----------------------------------------------------------------------- */
/* Mid-trick, the plays that beat the trick's winning play so far first (tallest first),
   then the others shortest first; for a seat of the coalition only while the player's play
   is the one winning, else all shortest first (graph_t_dd.py, coalition_order). The
   player's own plays by the same rule (measured on the 4 x 5 seeds 0-23: 1.12M -> 0.78M
   nodes; 4 x 6 seed 21: 33.8M -> 24.1M, seed 0: 4.4M -> 0.51M; seed 17 1.39M -> 1.69M).
   A lead: tallest first, but the "killer" (the lead that last cut a search off at the
   same seat and number of cards) before, and the table's best play before that (4 x 5
   seeds 0-23: 0.77M -> 0.66M nodes; 4 x 6 seeds 0-23: 44.1M -> 25.6M, seed 21 23.8M ->
   6.0M; killers mid-trick too: the same in all, worse on seed 21). */
static void trick_order(const Core *S, int led, int wv, int *pids, int np, int beat_first) {
    int out[NPIDS], m = 0;
    if (beat_first) {
        int rest[NPIDS], nr = 0;
        for (int i = 0; i < np; i++) {
            if (strength(pids[i], led, S->trump) >= wv)
                out[m++] = pids[i];
            else
                rest[nr++] = pids[i];
        }
        for (int i = nr - 1; i >= 0; i--) out[m++] = rest[i];
    } else {
        for (int i = np - 1; i >= 0; i--) out[m++] = pids[i];
    }
    memcpy(pids, out, sizeof(int) * np);
}

/* ``x`` moved to the front of ``pids``, if it is there */
static void to_front(int *pids, int np, int x) {
    for (int i = 0; i < np; i++)
        if (pids[i] == x) {
            memmove(pids + 1, pids, sizeof(int) * i);
            pids[0] = x;
            return;
        }
}

/* the plays of the seat to move, in the search's order; a lead tallest first */
static int ordered_plays(const Core *S, int mover, int k, int led, int g0, int tg0, int wv,
                         int wk, int *pids) {
    int np = pids_of(legal_key(S, mover, k, led, g0, tg0), pids);
    if (k) {
        int pi = S->ppos[S->st.leader];
        trick_order(S, led, wv, pids, np, mover == S->player || (pi < k && wk == pi));
    }
    return np;
}

/* --- the search -------------------------------------------------------------------------- */
static val_t visit(Core *S, val_t alpha, val_t beta);

/* the signature of a trick's last play: two plays that leave the same card, the same
   winner, stack and gain and the same grey state reach one position */
static inline int end_sig(const Core *S, int c, int wi, int add, int g) {
    return c | wi << 5 | add << 10 | (S->gkt[g] + 1) << 22;
}

static inline int seen_before(int *seen, int *nseen, int sig) {
    for (int i = 0; i < *nseen; i++)
        if (seen[i] == sig) return 1;
    seen[(*nseen)++] = sig;
    return 0;
}

/* a node whose value lies in [lo, hi], searched in (alpha, beta): 1 with its fail-soft
   value in *out when the bounds settle it, else 0 and the window narrowed to them
   (search.py, narrow) */
static inline int narrow(val_t lo, val_t hi, val_t *alpha, val_t *beta, val_t *out) {
    if (lo >= *beta || lo == hi) {
        *out = lo;
        return 1;
    }
    if (hi <= *alpha) {
        *out = hi;
        return 1;
    }
    if (lo > *alpha) *alpha = lo;
    if (hi < *beta) *beta = hi;
    return 0;
}

/* at a trick boundary: the bounds and the table; returns 1 with the value in *out when
   they settle it, else narrows the window and fills the key */
static int boundary(Core *S, val_t *alpha, val_t *beta, val_t *out, Key *key, uint64_t *h,
                    val_t *elo, val_t *ehi, int *ebest) {
    int leader = S->st.leader;
    Info *I = info_get(S);
    Base B;
    base_of(S, I, &B);
    if (narrow(B.lo, B.hi, alpha, beta, out)) return 1;
    memset(key, 0, sizeof *key);
    key->cards = S->st.cards;
    memcpy(key->norm, B.norm, sizeof key->norm);
    key->leader = (uint8_t)leader;
    key->gk = (uint8_t)(S->gkt[S->st.greyed] + 1);
    *h = key_hash(key);
    Entry *e = tt_find(S, key, *h);
    if (e) {
        *elo = e->lo;
        *ehi = e->hi;
        *ebest = e->best;
        if (narrow(e->lo, e->hi, alpha, beta, out)) return 1;
    }
    /* the sharper bounds, only for a node the quick ones and the table leave open */
    val_t rlo, rhi;
    refine(S, I, &B, leader, &rlo, &rhi);
    return narrow(rlo, rhi, alpha, beta, out);
}

static val_t visit(Core *S, val_t alpha, val_t beta) {
    S->nodes++;
    if (S->nodes > S->max_nodes || (S->check && !(S->nodes & S->check_mask))) tick(S);
    int n = S->n, player = S->player;
    int k = S->st.k, leader = S->st.leader;
    int have_key = 0, ebest = -1, depth = 0;
    Key key;
    uint64_t h = 0;
    val_t elo = -INF, ehi = INF;
    if (k == 0) {
        int cl = ncards(S, leader);
        if (cl == 0) return evaluate(S);
        if (cl == 1) {
            /* the last trick: solved directly, cheaper than its bounds */
            int pairs[4];
            pairs_now(S, pairs);
            return last_trick(S, leader, S->st.greyed, pairs, alpha, beta);
        }
        val_t r;
        if (boundary(S, &alpha, &beta, &r, &key, &h, &elo, &ehi, &ebest)) return r;
        depth = cl;
        have_key = 1;
    }
    int mover = S->seat_at[leader][k];
    uint64_t cards0 = S->st.cards;
    uint32_t pres0 = S->st.pres[mover];
    int nc0 = S->st.nc[mover];
    int g0 = S->st.greyed, tg0 = S->st.tgrey, wv0 = S->st.wv, wk0 = S->st.wk;
    int led = k ? PCOL[S->st.trick[0]] : -1;
    int pids[NPIDS];
    int np = ordered_plays(S, mover, k, led, g0, tg0, wv0, wk0, pids);
    /* first the table's best play, then (a lead) the killer lead of this seat and depth */
    if (!k && S->killer[mover][nc0] >= 0) to_front(pids, np, S->killer[mover][nc0]);
    if (ebest >= 0) to_front(pids, np, ebest);
    int maxi = mover == player;
    val_t best = maxi ? -INF : INF;
    int best_pid = -1;
    val_t a0 = alpha, b0 = beta;
    int last = k + 1 == n;
    int seen[NPIDS], nseen = 0;
    int lastnext = last && nc0 == 2;
    int saved[4] = {0, 0, 0, 0};
    if (last) memcpy(saved, S->st.trick, sizeof saved);
    for (int j = 0; j < np; j++) {
        int pid = pids[j], c = pid >> 1;
        S->st.cards = cards0;
        S->st.pres[mover] = pres0;
        S->st.nc[mover] = nc0;
        take(S, mover, c);
        if (PISG[pid]) {
            S->st.greyed = g0 | (1 << mover);
            S->st.tgrey = 1;
        }
        int l = k ? led : PCOL[pid], wv = wv0, wk = wk0;
        compete(pid, k, l, S->trump, &wv, &wk);
        S->st.trick[k] = pid;
        val_t v;
        if (last) {
            int wc, add = collected(S->st.trick, n, wk, &wc);
            int ws = S->seat_at[leader][wk], wi = 6 * ws + wc;
            if (seen_before(seen, &nseen, end_sig(S, c, wi, add, S->st.greyed))) {
                S->st.greyed = g0;
                S->st.tgrey = tg0;
                continue;
            }
            S->st.H[wi] += add;
            S->st.k = 0;
            S->st.tgrey = 0;
            S->st.leader = ws;
            if (lastnext) {
                /* the next trick is the last: as visit would, inline */
                S->nodes++;
                int pairs[4];
                pairs_now(S, pairs);
                v = last_trick(S, ws, S->st.greyed, pairs, alpha, beta);
            } else if (S->st.cards) {
                v = visit(S, alpha, beta);
            } else {
                S->nodes++;
                v = evaluate(S);
            }
            S->st.H[wi] -= add;
            S->st.leader = leader;
            memcpy(S->st.trick, saved, sizeof saved);
        } else {
            S->st.k = k + 1;
            S->st.wv = wv;
            S->st.wk = wk;
            v = visit(S, alpha, beta);
        }
        S->st.k = k;
        S->st.greyed = g0;
        S->st.tgrey = tg0;
        S->st.wv = wv0;
        S->st.wk = wk0;
        val_t before = best;
        int stop = cut(maxi, v, &best, &alpha, &beta);
        if (best != before) best_pid = pid;
        if (stop) {
            if (!k) S->killer[mover][nc0] = (int8_t)pid;
            break;
        }
    }
    S->st.cards = cards0;
    S->st.pres[mover] = pres0;
    S->st.nc[mover] = nc0;
    /* at the last two tricks the best play is not kept (the reference's rule) */
    if (have_key) store(S, &key, h, elo, ehi, best, a0, b0, depth > 2 ? best_pid : -1, depth);
    return best;
}

/* --- the Python type ------------------------------------------------------------------ */
static void core_free_tables(Core *S) {
    free(S->tt);
    S->tt = NULL;
    free(S->info);
    S->info = NULL;
    free(S->lasts);
    S->lasts = NULL;
    free(S->undo);
    S->undo = NULL;
}

static void Core_dealloc(Core *S) {
    core_free_tables(S);
    Py_XDECREF(S->check);
    Py_XDECREF(S->nodes_error);
    Py_TYPE(S)->tp_free((PyObject *)S);
}

static int list_ints(PyObject *seq, int *out, int maxn, const char *what) {
    PyObject *f = PySequence_Fast(seq, what);
    if (!f) return -1;
    Py_ssize_t m = PySequence_Fast_GET_SIZE(f);
    if (m > maxn) {
        Py_DECREF(f);
        PyErr_Format(PyExc_ValueError, "%s: too many items", what);
        return -1;
    }
    for (Py_ssize_t i = 0; i < m; i++) {
        long x = PyLong_AsLong(PySequence_Fast_GET_ITEM(f, i));
        if (x == -1 && PyErr_Occurred()) {
            Py_DECREF(f);
            return -1;
        }
        out[i] = (int)x;
    }
    Py_DECREF(f);
    return (int)m;
}

/* Core(n, counts, heights, trick, leader, greyed, player, trump, anyone, max_nodes, check,
        check_every, tt_bytes, nodes_error)
   counts: n sequences of 21 card counts; heights: 6 n ints; trick: play ids; max_nodes: -1
   for no limit; check: a callable (or None) called every check_every nodes, whose
   exception stops the search; tt_bytes: the most the table may take; nodes_error: the
   exception (an instance) raised past max_nodes */
static int Core_init(Core *S, PyObject *args, PyObject *kw) {
    int n, leader, greyed, player, trump, anyone;
    long long max_nodes, check_every, tt_bytes;
    PyObject *counts, *heights, *trick, *check, *nodes_error;
    if (!PyArg_ParseTuple(args, "iOOOiiippLOLLO", &n, &counts, &heights, &trick, &leader,
                          &greyed, &player, &trump, &anyone, &max_nodes, &check, &check_every,
                          &tt_bytes, &nodes_error))
        return -1;
    if (!PyExceptionInstance_Check(nodes_error)) {
        PyErr_SetString(PyExc_TypeError, "nodes_error: an exception instance");
        return -1;
    }
    if (!T_ready) {
        PyErr_SetString(PyExc_RuntimeError, "set_tables() first");
        return -1;
    }
    if (n < 2 || n > 4 || player < 0 || player >= n || leader < 0 || leader >= n) {
        PyErr_SetString(PyExc_ValueError, "bad seats");
        return -1;
    }
    core_free_tables(S);
    memset(&S->st, 0, sizeof S->st);
    S->n = n;
    S->player = player;
    S->trump = trump;
    S->anyone = anyone;
    PyObject *cf = PySequence_Fast(counts, "counts");
    if (!cf) return -1;
    if (PySequence_Fast_GET_SIZE(cf) != n) {
        Py_DECREF(cf);
        PyErr_SetString(PyExc_ValueError, "counts: one per seat");
        return -1;
    }
    int bit = 0;
    for (int s = 0; s < n; s++) {
        int cnt[NCODES];
        if (list_ints(PySequence_Fast_GET_ITEM(cf, s), cnt, NCODES, "counts") != NCODES) {
            Py_DECREF(cf);
            if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "counts: 21 a seat");
            return -1;
        }
        S->seatmask[s] = 0;
        S->st.pres[s] = 0;
        for (int c = 0; c < NCODES; c++) {
            if (cnt[c] < 0 || bit + cnt[c] > 64) {
                Py_DECREF(cf);
                PyErr_SetString(PyExc_ValueError, "more than 64 cards");
                return -1;
            }
            if (cnt[c] > 4) {
                Py_DECREF(cf);
                PyErr_SetString(PyExc_ValueError, "more than 4 cards of a kind");
                return -1;
            }
            S->gb[s][c] = bit;
            S->gw[s][c] = (1u << cnt[c]) - 1;
            S->st.nc[s] += cnt[c];
            uint64_t g = cnt[c] ? (((1ULL << cnt[c]) - 1) << bit) : 0;
            S->gm[s][c] = g;
            S->seatmask[s] |= g;
            S->st.cards |= g;
            if (cnt[c]) S->st.pres[s] |= 1u << c;
            bit += cnt[c];
        }
    }
    Py_DECREF(cf);
    int hs[24];
    if (list_ints(heights, hs, 24, "heights") != 6 * n) {
        if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "heights: 6 a seat");
        return -1;
    }
    for (int i = 0; i < 6 * n; i++) {
        if (hs[i] < 0 || hs[i] > 8000) {
            PyErr_SetString(PyExc_ValueError, "a stack out of range");
            return -1;
        }
        S->st.H[i] = hs[i];
    }
    int tr[4];
    int k = list_ints(trick, tr, n - 1, "trick");
    if (k < 0) return -1;
    S->st.k = k;
    S->st.tgrey = 0;
    for (int i = 0; i < k; i++) {
        if (tr[i] < 0 || tr[i] >= NPIDS) {
            PyErr_SetString(PyExc_ValueError, "bad play id");
            return -1;
        }
        S->st.trick[i] = tr[i];
        if (PISG[tr[i]]) S->st.tgrey = 1;
        compete(tr[i], i, PCOL[tr[0]], trump, &S->st.wv, &S->st.wk);
    }
    S->st.leader = leader;
    S->st.greyed = greyed;
    for (int ld = 0; ld < n; ld++)
        for (int i = 0; i < n; i++) S->seat_at[ld][i] = (ld + i) % n;
    for (int ld = 0; ld < n; ld++)
        for (int i = 0; i < n; i++)
            if (S->seat_at[ld][i] == player) S->ppos[ld] = i;
    for (int g = 0; g < 16; g++) {
        if (anyone)
            S->gkt[g] = g ? -1 : 0;
        else
            S->gkt[g] = (g & (g - 1)) == 0 ? g : -1;
    }
    memset(S->killer, -1, sizeof S->killer);
    S->nodes = 0;
    S->max_nodes = max_nodes < 0 ? LLONG_MAX : max_nodes;
    Py_XDECREF(S->check);
    S->check = check == Py_None ? NULL : check;
    Py_XINCREF(S->check);
    Py_XDECREF(S->nodes_error);
    S->nodes_error = nodes_error;
    Py_INCREF(nodes_error);
    long long ce = 1;
    while (ce < check_every) ce <<= 1;
    S->check_mask = ce - 1;
    /* the table: at most tt_bytes (16 buckets at least), starting at 4096 buckets; the
       memos: up to 4096 hands and 16384 last tricks, each at most a quarter of that */
    size_t budget = tt_bytes > 0 ? (size_t)tt_bytes : 0;
    size_t maxb = 16;
    while ((maxb * 2) * sizeof(Bucket) <= budget) maxb *= 2;
    S->tt_max_buckets = maxb;
    S->tt_buckets = maxb < 4096 ? maxb : 4096;
    S->tt = calloc(S->tt_buckets, sizeof(Bucket));
    S->tt_count = 0;
    size_t ni = 16, nl = 16;
    while (ni < 4096 && (ni * 2) * sizeof(Info) <= budget / 4) ni *= 2;
    while (nl < 16384 && (nl * 2) * sizeof(LastT) <= budget / 4) nl *= 2;
    S->info_mask = ni - 1;
    S->info = calloc(ni, sizeof(Info));
    S->lasts_mask = nl - 1;
    S->lasts = calloc(nl, sizeof(LastT));
    S->undo_cap = 128;
    S->undo = malloc(S->undo_cap * sizeof(St));
    S->nundo = 0;
    if (!S->tt || !S->info || !S->lasts || !S->undo) {
        PyErr_NoMemory();
        return -1;
    }
    return 0;
}

static PyObject *Core_visit(Core *S, PyObject *args) {
    long long a, b;
    if (!PyArg_ParseTuple(args, "LL", &a, &b)) return NULL;
    if (!S->tt) {
        PyErr_SetString(PyExc_RuntimeError, "closed");
        return NULL;
    }
    St saved = S->st;
    if (setjmp(S->jb)) {
        S->st = saved;
        return NULL; /* the exception is set */
    }
    val_t v = visit(S, (val_t)a, (val_t)b);
    return PyLong_FromLongLong((long long)v);
}

static PyObject *Core_push(Core *S, PyObject *arg) {
    long pid = PyLong_AsLong(arg);
    if (pid == -1 && PyErr_Occurred()) return NULL;
    if (pid < 0 || pid >= NPIDS) {
        PyErr_SetString(PyExc_ValueError, "bad play id");
        return NULL;
    }
    if (S->nundo == S->undo_cap) {
        St *u = realloc(S->undo, 2 * S->undo_cap * sizeof(St));
        if (!u) return PyErr_NoMemory();
        S->undo = u;
        S->undo_cap *= 2;
    }
    S->undo[S->nundo++] = S->st;
    int n = S->n;
    int mover = (S->st.leader + S->st.k) % n;
    int c = (int)pid >> 1;
    if (!(S->st.pres[mover] >> c & 1)) {
        S->nundo--;
        PyErr_SetString(PyExc_ValueError, "the mover holds no such card");
        return NULL;
    }
    take(S, mover, c);
    if (PISG[pid]) {
        S->st.greyed |= 1 << mover;
        S->st.tgrey = 1;
    }
    compete((int)pid, S->st.k, PCOL[S->st.k ? S->st.trick[0] : pid], S->trump, &S->st.wv,
            &S->st.wk);
    S->st.trick[S->st.k++] = (int)pid;
    if (S->st.k == n) {
        int wc, add = collected(S->st.trick, n, S->st.wk, &wc);
        int ws = (S->st.leader + S->st.wk) % n;
        S->st.H[6 * ws + wc] += add;
        S->st.k = 0;
        S->st.tgrey = 0;
        S->st.leader = ws;
    }
    Py_RETURN_NONE;
}

static PyObject *Core_pop(Core *S, PyObject *noarg) {
    if (!S->nundo) {
        PyErr_SetString(PyExc_IndexError, "nothing to pop");
        return NULL;
    }
    S->st = S->undo[--S->nundo];
    Py_RETURN_NONE;
}

static PyObject *Core_evaluate(Core *S, PyObject *noarg) {
    return PyLong_FromLongLong((long long)evaluate(S));
}

static PyObject *Core_bounds(Core *S, PyObject *noarg) {
    if (S->st.k || !S->st.cards) {
        PyErr_SetString(PyExc_ValueError, "bounds: at a trick boundary with cards left");
        return NULL;
    }
    Info *I = info_get(S);
    Base B;
    base_of(S, I, &B);
    val_t lo, hi;
    refine(S, I, &B, S->st.leader, &lo, &hi);
    if (B.lo > lo) lo = B.lo;
    if (B.hi < hi) hi = B.hi;
    return Py_BuildValue("LL", (long long)lo, (long long)hi);
}

static PyObject *Core_close(Core *S, PyObject *noarg) {
    core_free_tables(S);
    Py_CLEAR(S->check);
    Py_CLEAR(S->nodes_error);
    Py_RETURN_NONE;
}

static PyObject *Core_get_nodes(Core *S, void *c) { return PyLong_FromLongLong(S->nodes); }

static PyObject *Core_get_table(Core *S, void *c) {
    return Py_BuildValue("nnn", (Py_ssize_t)S->tt_count, (Py_ssize_t)(S->tt_buckets * WAYS),
                         (Py_ssize_t)(S->tt_max_buckets * WAYS));
}

static PyObject *Core_get_bytes(Core *S, void *c) {
    size_t b = 0;
    if (S->tt) b += S->tt_buckets * sizeof(Bucket);
    if (S->info) b += (S->info_mask + 1) * sizeof(Info);
    if (S->lasts) b += (S->lasts_mask + 1) * sizeof(LastT);
    return PyLong_FromSize_t(b);
}

static PyMethodDef Core_methods[] = {
    {"visit", (PyCFunction)Core_visit, METH_VARARGS,
     "visit(alpha, beta): the value of the current position, fail-soft within the window"},
    {"push", (PyCFunction)Core_push, METH_O, "push(pid): make a play of the player to move"},
    {"pop", (PyCFunction)Core_pop, METH_NOARGS, "pop(): take back the last push"},
    {"evaluate", (PyCFunction)Core_evaluate, METH_NOARGS, "the value of the end of the game"},
    {"bounds", (PyCFunction)Core_bounds, METH_NOARGS, "the quick (lower, upper) bounds"},
    {"close", (PyCFunction)Core_close, METH_NOARGS, "free the tables"},
    {NULL}};

static PyGetSetDef Core_getset[] = {
    {"nodes", (getter)Core_get_nodes, NULL, "positions visited", NULL},
    {"table", (getter)Core_get_table, NULL, "(entries, slots, most slots)", NULL},
    {"bytes", (getter)Core_get_bytes, NULL, "bytes of the tables", NULL},
    {NULL}};

static PyTypeObject CoreType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "kifu.puzzles._ddcore.Core",
    .tp_basicsize = sizeof(Core),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)Core_init,
    .tp_dealloc = (destructor)Core_dealloc,
    .tp_methods = Core_methods,
    .tp_getset = Core_getset,
    .tp_doc = "The compiled GRAPH-T double-dummy search (see graph_t_dd.py).",
};

/* set_tables(play_colour, play_height, play_is_grey, play_ok, card_colour, nontop, gbit,
              cmask, order) */
static PyObject *set_tables(PyObject *mod, PyObject *args) {
    PyObject *pc, *ph, *pg, *po, *cc, *cm, *ord;
    unsigned long nontop, gbit;
    if (!PyArg_ParseTuple(args, "OOOOOkkOO", &pc, &ph, &pg, &po, &cc, &nontop, &gbit, &cm, &ord))
        return NULL;
    int cmv[5];
    if (list_ints(pc, PCOL, NPIDS, "play_colour") != NPIDS ||
        list_ints(ph, PHT, NPIDS, "play_height") != NPIDS ||
        list_ints(pg, PISG, NPIDS, "play_is_grey") != NPIDS ||
        list_ints(po, POK, NPIDS, "play_ok") != NPIDS ||
        list_ints(cc, CCOL, NCODES, "card_colour") != NCODES || list_ints(cm, cmv, 5, "cmask") != 5) {
        if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "bad table size");
        return NULL;
    }
    NORDER = list_ints(ord, ORDER, NPIDS, "order");
    if (NORDER < 0) return NULL;
    for (int i = 0; i < NPIDS; i++) RANK[i] = NPIDS;
    for (int i = 0; i < NORDER; i++) {
        if (ORDER[i] < 0 || ORDER[i] >= NPIDS) {
            PyErr_SetString(PyExc_ValueError, "order: bad play id");
            return NULL;
        }
        RANK[ORDER[i]] = i;
    }
    NONTOP = (uint32_t)nontop;
    GBITM = (uint32_t)gbit;
    for (int i = 0; i < 5; i++) CMASK[i] = (uint32_t)cmv[i];
    T_ready = 1;
    Py_RETURN_NONE;
}

static PyMethodDef module_methods[] = {
    {"set_tables", set_tables, METH_VARARGS, "give the card tables (once)"}, {NULL}};

static struct PyModuleDef moduledef = {PyModuleDef_HEAD_INIT, "_ddcore",
                                       "The compiled GRAPH-T double-dummy search.", -1,
                                       module_methods};

PyMODINIT_FUNC PyInit__ddcore(void) {
    if (PyType_Ready(&CoreType) < 0) return NULL;
    PyObject *m = PyModule_Create(&moduledef);
    if (!m) return NULL;
    Py_INCREF(&CoreType);
    PyModule_AddObject(m, "Core", (PyObject *)&CoreType);
    PyModule_AddIntConstant(m, "BUCKET_BYTES", (long)sizeof(Bucket));
    PyModule_AddIntConstant(m, "WAYS", WAYS);
    PyModule_AddIntConstant(m, "INFO_BYTES", (long)sizeof(Info));
    return m;
}
