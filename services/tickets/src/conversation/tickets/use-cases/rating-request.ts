/** The rating request on close (spec 01 "Ticket rating scale": 1 unsatisfied, 2 satisfied, 3 very satisfied). */
export function ratingRequestText(ratingMessage: string | undefined): string {
  const scale = 'Digite de 1 à 3 para qualificar nosso atendimento:\n*1* - _Insatisfeito_\n*2* - _Satisfeito_\n*3* - _Muito Satisfeito_';
  const intro = (ratingMessage ?? '').trim();
  return intro ? `${intro}\n\n${scale}` : scale;
}
