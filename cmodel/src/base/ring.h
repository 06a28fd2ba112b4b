/* ring.h: index arithmetic of the fixed-capacity rings (a head, a count and
 * a capacity `cap`) that the memory side and the LD/ST units keep.
 *
 * Contract.  Every ring keeps head < cap and count <= cap; then
 * head + i < 2 * cap for any i <= count, so one compare and subtraction
 * gives what `(head + i) % cap` gives, without the division (a division per
 * push and per pop, with a capacity known only at run time, was a visible
 * share of a busy memory side: several per memory transaction). */
#ifndef BASE_RING_H
#define BASE_RING_H

/* The slot i places after `head` (i <= cap, head < cap). */
static inline unsigned ring_slot(unsigned head, unsigned i, unsigned cap)
{
    unsigned k = head + i;
    return k >= cap ? k - cap : k;
}

/* The slot after `at` (at < cap). */
static inline unsigned ring_next(unsigned at, unsigned cap)
{
    return at + 1 == cap ? 0 : at + 1;
}

#endif
