/*
 * cp_interp.c - linear interpolation in measured tables, the one log3P
 * and PLogP evaluate with (analysis/cp_model.h).
 */
#include "config.h"

#include "analysis/cp_model.h"

bool cp_model_locate(const double *xs, int n, double x, int *a, double *w)
{
	int i = 0;

	*a = 0;
	*w = 0;
	if (n == 1)
		return x != xs[0];
	while (i < n - 2 && x > xs[i + 1])
		i++;
	*a = i;
	*w = (x - xs[i]) / (xs[i + 1] - xs[i]);
	return x < xs[0] || x > xs[n - 1];
}

double cp_model_lerp(const double *v, int stride, int a, double w, int n)
{
	if (n == 1 || w == 0)
		return v[a * stride];
	return (1 - w) * v[a * stride] + w * v[(a + 1) * stride];
}
