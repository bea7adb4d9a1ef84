import { describe, expect, it } from '@jest/globals';
import {
  defaultWorkingHours,
  hasWorkingDaysErrors,
  hasWorkingHoursServerErrors,
  isClosedDay,
  normalizeTime,
  sevenDaysOf,
  validateWorkingDays,
  WEEKDAYS,
  workingDaysPayload,
  workingHoursServerErrors,
  type WorkingDay,
} from '../working-hours';

const hours = (days: WorkingDay[]) => days.map((d) => `${d.weekdayEn} ${d.startTime}-${d.endTime}`);

describe('working hours (spec 02 §2 schedules, §5, §9)', () => {
  it('the week is Sunday first, each day with its Portuguese name', () => {
    expect(WEEKDAYS.map((d) => d.weekdayEn)).toEqual(['sunday', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday']);
    expect(WEEKDAYS.map((d) => d.weekday)).toEqual([
      'Domingo',
      'Segunda-feira',
      'Terça-feira',
      'Quarta-feira',
      'Quinta-feira',
      'Sexta-feira',
      'Sábado',
    ]);
  });

  it('defaults: Monday to Friday 08:00–18:00, Saturday 08:00–12:00, Sunday closed', () => {
    expect(hours(defaultWorkingHours())).toEqual([
      'sunday 00:00-00:00',
      'monday 08:00-18:00',
      'tuesday 08:00-18:00',
      'wednesday 08:00-18:00',
      'thursday 08:00-18:00',
      'friday 08:00-18:00',
      'saturday 08:00-12:00',
    ]);
    expect(defaultWorkingHours()[1]).toEqual({ weekday: 'Segunda-feira', weekdayEn: 'monday', startTime: '08:00', endTime: '18:00' });
  });

  it('edits the saved days as seven, in week order; a day not saved is closed; none saved shows the defaults', () => {
    const saved: WorkingDay[] = [
      { weekday: 'Sábado', weekdayEn: 'saturday', startTime: '09:00', endTime: '13:00' },
      { weekday: 'Segunda-feira', weekdayEn: 'monday', startTime: '10:00', endTime: '16:00' },
    ];
    const days = sevenDaysOf(saved);
    expect(hours(days)).toEqual([
      'sunday 00:00-00:00',
      'monday 10:00-16:00',
      'tuesday 00:00-00:00',
      'wednesday 00:00-00:00',
      'thursday 00:00-00:00',
      'friday 00:00-00:00',
      'saturday 09:00-13:00',
    ]);
    expect(days[2]?.weekday).toBe('Terça-feira');
    expect(sevenDaysOf([])).toEqual(defaultWorkingHours());
    expect(sevenDaysOf(undefined)).toEqual(defaultWorkingHours());
    // the defaults handed out are copies
    const a = sevenDaysOf(null);
    (a[1] as WorkingDay).startTime = '07:00';
    expect(sevenDaysOf(null)[1]?.startTime).toBe('08:00');
  });

  it('a day whose start is not before its end is closed', () => {
    expect(isClosedDay({ startTime: '00:00', endTime: '00:00' })).toBe(true);
    expect(isClosedDay({ startTime: '18:00', endTime: '08:00' })).toBe(true);
    expect(isClosedDay({ startTime: '08:00', endTime: '18:00' })).toBe(false);
    expect(isClosedDay({ startTime: '', endTime: '18:00' })).toBe(false);
  });

  it('times are required and HH:mm; a closed day is allowed', () => {
    const days = defaultWorkingHours();
    expect(validateWorkingDays(days)).toEqual({});
    const setDay = (i: number, change: Partial<WorkingDay>) => (days[i] = { ...(days[i] as WorkingDay), ...change });
    setDay(1, { startTime: '' });
    setDay(3, { endTime: '25:00' });
    setDay(4, { startTime: '8:00', endTime: 'x' });
    const errors = validateWorkingDays(days);
    expect(errors).toEqual({ 1: { startTime: 'required' }, 3: { endTime: 'time' }, 4: { startTime: 'time', endTime: 'time' } });
    expect(hasWorkingDaysErrors(errors)).toBe(true);
    expect(hasWorkingDaysErrors({})).toBe(false);
    expect(validateWorkingDays([{ weekday: 'Domingo', weekdayEn: 'sunday', startTime: '08:00:00', endTime: '23:59' }])).toEqual({});
  });

  it('sends the seven days once each, in week order, with the Portuguese names and HH:mm times', () => {
    const shuffled: WorkingDay[] = [...defaultWorkingHours()].reverse().map((d) => ({ ...d, weekday: d.weekdayEn }));
    shuffled[0] = { ...(shuffled[0] as WorkingDay), startTime: '09:00:00' };
    const body = workingDaysPayload(shuffled);
    expect(body.map((d) => d.weekday)).toEqual(WEEKDAYS.map((d) => d.weekday));
    expect(body[6]).toEqual({ weekday: 'Sábado', weekdayEn: 'saturday', startTime: '09:00', endTime: '12:00' });
    // a missing day goes as closed
    expect(workingDaysPayload([])[0]).toEqual({ weekday: 'Domingo', weekdayEn: 'sunday', startTime: '00:00', endTime: '00:00' });
    expect(normalizeTime(' 07:30 ')).toBe('07:30');
  });

  it("reads the server's field errors by day, and the list's own", () => {
    const fieldErrors = {
      'schedules.1.startTime': 'Hora inválida',
      'schedules.1.endTime': 'Obrigatório',
      'schedules.3.weekdayEn': 'Dia inválido',
      name: 'Too Short!',
    };
    expect(workingHoursServerErrors(fieldErrors)).toEqual({
      days: { 1: { startTime: 'Hora inválida', endTime: 'Obrigatório' } },
      general: 'Dia inválido',
    });
    expect(workingHoursServerErrors({ schedules: 'Dia repetido' })).toEqual({ days: {}, general: 'Dia repetido' });
    expect(hasWorkingHoursServerErrors(fieldErrors)).toBe(true);
    expect(hasWorkingHoursServerErrors({ name: 'Too Short!', 'schedules.1.startTime': '' })).toBe(false);
  });
});
